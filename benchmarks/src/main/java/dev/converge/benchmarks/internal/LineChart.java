package dev.converge.benchmarks.internal;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** A small line chart drawn with java.awt (headless) into a PNG: a few named series of (x, y). */
public final class LineChart {

  /** One line. */
  public record Series(String name, List<double[]> points) {}

  private static final Color[] COLORS = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b)
  };
  private static final int WIDTH = 900;
  private static final int HEIGHT = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 30;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean markers;
  private final List<Series> series = new ArrayList<>();

  public LineChart(String title, String xLabel, String yLabel, boolean markers) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.markers = markers;
  }

  public LineChart add(Series line) {
    series.add(line);
    return this;
  }

  /** Draws the chart and writes it to {@code file}. */
  public void write(Path file) {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);

    double maxX = 0;
    double maxY = 0;
    for (Series s : series) {
      for (double[] p : s.points()) {
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
    }
    maxX = niceCeiling(maxX);
    maxY = niceCeiling(maxY);
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int i = 0; i <= 5; i++) {
      int y = TOP + plotH - plotH * i / 5;
      int x = LEFT + plotW * i / 5;
      g.setColor(new Color(0xe6e6e6));
      g.drawLine(LEFT, y, LEFT + plotW, y);
      g.drawLine(x, TOP, x, TOP + plotH);
      g.setColor(Color.DARK_GRAY);
      String yText = format(maxY * i / 5);
      g.drawString(yText, LEFT - 8 - g.getFontMetrics().stringWidth(yText), y + 4);
      String xText = format(maxX * i / 5);
      g.drawString(xText, x - g.getFontMetrics().stringWidth(xText) / 2, TOP + plotH + 18);
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, TOP, plotW, plotH);
    g.drawString(
        xLabel, LEFT + plotW / 2 - g.getFontMetrics().stringWidth(xLabel) / 2, HEIGHT - 18);
    Graphics2D rotated = (Graphics2D) g.create();
    rotated.rotate(-Math.PI / 2);
    rotated.drawString(yLabel, -(TOP + plotH / 2 + g.getFontMetrics().stringWidth(yLabel) / 2), 20);
    rotated.dispose();
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, LEFT, 30);

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setStroke(new BasicStroke(2f));
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      g.setColor(COLORS[i % COLORS.length]);
      int[] xs = new int[s.points().size()];
      int[] ys = new int[s.points().size()];
      for (int j = 0; j < xs.length; j++) {
        double[] p = s.points().get(j);
        xs[j] = LEFT + (int) Math.round(maxX == 0 ? 0 : p[0] / maxX * plotW);
        ys[j] = TOP + plotH - (int) Math.round(maxY == 0 ? 0 : p[1] / maxY * plotH);
        if (markers) {
          g.fillOval(xs[j] - 4, ys[j] - 4, 8, 8);
        }
      }
      g.drawPolyline(xs, ys, xs.length);
      int legendY = TOP + 18 + 18 * i;
      g.fillRect(LEFT + 12, legendY - 9, 14, 10);
      g.setColor(Color.BLACK);
      g.drawString(s.name(), LEFT + 32, legendY);
    }
    g.dispose();
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      ImageIO.write(image, "png", file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the chart " + file, e);
    }
  }

  private static double niceCeiling(double value) {
    if (value <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= value) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String format(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : String.format("%.1f", value);
  }
}
