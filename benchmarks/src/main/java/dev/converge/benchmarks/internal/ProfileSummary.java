package dev.converge.benchmarks.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the CPU went, from a Flight Recorder file: the execution samples counted by the method they
 * were in (self) and by the first frame of a given package prefix on their stack (the code of ours
 * that was running, whatever library it called).
 */
public final class ProfileSummary {

  private ProfileSummary() {}

  /**
   * Markdown tables of the top methods by self samples, by the innermost frame of {@code prefix},
   * and by every {@code prefix} method on the stack (inclusive: what it and its callees cost).
   */
  public static String of(Path jfr, String prefix, int top) {
    Map<String, Integer> self = new HashMap<>();
    Map<String, Integer> ours = new HashMap<>();
    Map<String, Integer> inclusive = new HashMap<>();
    Map<String, Integer> threads = new HashMap<>();
    int samples = 0;
    int threadsStarted = 0;
    long compilations = 0;
    try {
      for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
        String type = event.getEventType().getName();
        if (type.equals("jdk.ThreadStart")) {
          threadsStarted++;
        }
        if (type.equals("jdk.CompilerStatistics")) {
          compilations = Math.max(compilations, event.getLong("compileCount"));
        }
        if (!type.equals("jdk.ExecutionSample")) {
          continue;
        }
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null || stack.getFrames().isEmpty()) {
          continue;
        }
        samples++;
        if (event.getThread("sampledThread") != null) {
          String thread = event.getThread("sampledThread").getJavaName();
          threads.merge(thread == null ? "?" : thread.replaceAll("\\d+", "N"), 1, Integer::sum);
        }
        List<RecordedFrame> frames = stack.getFrames();
        self.merge(name(frames.get(0)), 1, Integer::sum);
        frames.stream()
            .filter(f -> f.getMethod().getType().getName().startsWith(prefix))
            .findFirst()
            .ifPresent(f -> ours.merge(name(f), 1, Integer::sum));
        frames.stream()
            .filter(f -> f.getMethod().getType().getName().startsWith(prefix))
            .map(ProfileSummary::name)
            .distinct()
            .forEach(method -> inclusive.merge(method, 1, Integer::sum));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the profile " + jfr, e);
    }
    StringBuilder out = new StringBuilder();
    out.append("Execution samples: ")
        .append(samples)
        .append(" (")
        .append(jfr.getFileName())
        .append("); threads started: ")
        .append(threadsStarted)
        .append("; methods compiled by the JIT: ")
        .append(compilations)
        .append("\n\n");
    table(out, "thread (digits as N)", threads, samples, top);
    out.append('\n');
    table(out, "self (method on top of the stack)", self, samples, top);
    out.append('\n');
    table(out, "innermost " + prefix + " frame", ours, samples, top);
    out.append('\n');
    table(out, prefix + " method anywhere on the stack (inclusive)", inclusive, samples, top);
    return out.toString();
  }

  private static void table(
      StringBuilder out, String title, Map<String, Integer> counts, int samples, int top) {
    out.append("| ").append(title).append(" | samples | share |\n|---|---|---|\n");
    Map<String, Integer> sorted = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(top)
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    sorted.forEach(
        (method, count) ->
            out.append("| `")
                .append(method)
                .append("` | ")
                .append(count)
                .append(" | ")
                .append(String.format(Locale.ROOT, "%.1f%%", 100.0 * count / Math.max(1, samples)))
                .append(" |\n"));
  }

  private static String name(RecordedFrame frame) {
    String type = frame.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
  }
}
