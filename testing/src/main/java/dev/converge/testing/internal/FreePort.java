package dev.converge.testing.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks a free TCP port on the loopback interface. */
public final class FreePort {
  private FreePort() {}

  /** A port that was free a moment ago; the component that binds it may still race another. */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
