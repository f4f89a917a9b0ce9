package dev.converge.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on the loopback interface that a test controls, for putting a real network fault
 * between a client and a server: {@link #cut()} closes every connection and refuses new ones (as a
 * crashed peer or a firewall reset would), {@link #stall()} keeps connections open but lets no byte
 * through in either direction (as a partition without resets would: requests hang until the
 * client's own timeout), {@link #heal()} lets traffic flow again.
 *
 * <p>TLS passes through untouched, so a client keeps verifying the server's certificate; give it
 * {@code https://127.0.0.1:<port()>} as its server (the local cluster's certificate names
 * 127.0.0.1).
 */
public final class TcpProxy implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);

  /** What the proxy does with traffic now. */
  public enum Mode {
    /** Traffic flows both ways. */
    OPEN,
    /** Connections stay open but no byte passes, in either direction ({@link #stall()}). */
    STALLED,
    /** Every connection is closed and new ones are refused ({@link #cut()}). */
    CUT
  }

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final Object gate = new Object();
  private volatile Mode mode = Mode.OPEN;

  /** How many times the proxy cut its connections; guarded by {@link #gate}. */
  private long cuts;

  private volatile boolean closed;

  private TcpProxy(InetSocketAddress target, ServerSocket server) {
    this.target = target;
    this.server = server;
  }

  /**
   * Starts a proxy on a free loopback port that forwards to {@code host:port}.
   *
   * @param host the host to forward to
   * @param port the port to forward to
   * @return the running proxy, open; the caller closes it
   */
  public static TcpProxy to(String host, int port) {
    try {
      ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port), server);
      Thread acceptor = new Thread(proxy::acceptLoop, "tcp-proxy-" + server.getLocalPort());
      acceptor.setDaemon(true);
      acceptor.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a proxy port for " + host + ":" + port, e);
    }
  }

  /** {@return the loopback port clients connect to} */
  public int port() {
    return server.getLocalPort();
  }

  /** {@return what the proxy does with traffic now} */
  public Mode mode() {
    return mode;
  }

  /** {@return how many connections the proxy accepted so far} */
  public long connectionsAccepted() {
    return accepted.get();
  }

  /** Closes every open connection and refuses new ones until {@link #heal()}. */
  public void cut() {
    synchronized (gate) {
      mode = Mode.CUT;
      cuts++;
      // Closed before any pump wakes: bytes held while stalled die with their connection, as after
      // a reset, and are never forwarded late.
      closeAll();
      gate.notifyAll();
    }
    log.info("proxy :{} -> {}: cut", port(), target);
  }

  /** Keeps connections open but forwards nothing, either way, until {@link #heal()}. */
  public void stall() {
    mode = Mode.STALLED;
    log.info("proxy :{} -> {}: stalled", port(), target);
  }

  /** Forwards traffic again; connections cut earlier stay closed, clients open new ones. */
  public void heal() {
    synchronized (gate) {
      mode = Mode.OPEN;
      gate.notifyAll();
    }
    log.info("proxy :{} -> {}: open", port(), target);
  }

  @Override
  public void close() {
    closed = true;
    heal();
    try {
      server.close();
    } catch (IOException e) {
      log.debug("closing proxy port {}: {}", port(), e.toString());
    }
    closeAll();
  }

  private void closeAll() {
    for (Socket socket : sockets) {
      quietlyClose(socket);
    }
    sockets.clear();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (!closed) {
          log.warn("proxy :{} stopped accepting: {}", port(), e.toString());
        }
        return;
      }
      accepted.incrementAndGet();
      if (mode == Mode.CUT) {
        quietlyClose(client);
        continue;
      }
      Socket upstream = new Socket();
      try {
        upstream.connect(target, 5_000);
      } catch (IOException e) {
        quietlyClose(client);
        quietlyClose(upstream);
        continue;
      }
      sockets.add(client);
      sockets.add(upstream);
      long epoch;
      synchronized (gate) {
        epoch = cuts;
      }
      pump(client, upstream, "up", epoch);
      pump(upstream, client, "down", epoch);
    }
  }

  private void pump(Socket from, Socket to, String direction, long epoch) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (!awaitOpen(epoch)) {
                    break; // cut while the bytes were held: they are dropped with the connection
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (SocketException closedMeanwhile) {
                // cut, or the other side went away: the connection ends
              } catch (IOException e) {
                log.debug("proxy :{} {}: {}", port(), direction, e.toString());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                quietlyClose(from);
                quietlyClose(to);
                sockets.remove(from);
                sockets.remove(to);
              }
            },
            "tcp-proxy-" + port() + "-" + direction);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Holds bytes while stalled. Returns whether they may pass: not when the proxy cut the connection
   * they came from meanwhile (or was closed), even if it was healed since.
   */
  private boolean awaitOpen(long epoch) throws InterruptedException {
    synchronized (gate) {
      while (mode == Mode.STALLED && !closed && cuts == epoch) {
        gate.wait();
      }
      return cuts == epoch && !closed;
    }
  }

  private static void quietlyClose(Socket socket) {
    try {
      socket.close();
    } catch (IOException alreadyClosed) {
      // nothing left to release
    }
  }

  @Override
  public String toString() {
    return "TcpProxy[:" + port() + " -> " + target + ", " + mode + "]";
  }
}
