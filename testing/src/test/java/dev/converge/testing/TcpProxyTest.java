package dev.converge.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a client's bytes do through the proxy, as the server behind it receives them. */
class TcpProxyTest {

  private static String readAll(Socket accepted) throws IOException {
    try (InputStream in = accepted.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void bytesHeldByAStallAreDroppedByACutEvenWhenHealedAtOnce() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        TcpProxy proxy = TcpProxy.to("127.0.0.1", target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        Socket first = target.accept()) {
      OutputStream out = client.getOutputStream();
      out.write("before ".getBytes(StandardCharsets.UTF_8));
      out.flush();
      byte[] seen = new byte[7];
      assertThat(first.getInputStream().readNBytes(seen, 0, 7)).isEqualTo(7);

      proxy.stall();
      out.write("held".getBytes(StandardCharsets.UTF_8));
      out.flush();
      proxy.cut();
      proxy.heal();

      // the connection behind the proxy ends without the held bytes
      assertThat(readAll(first)).isEmpty();
    }
  }

  @Test
  void bytesHeldByAStallPassWhenHealedWithoutACut() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        TcpProxy proxy = TcpProxy.to("127.0.0.1", target.getLocalPort());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        Socket accepted = target.accept()) {
      proxy.stall();
      client.getOutputStream().write("late".getBytes(StandardCharsets.UTF_8));
      client.getOutputStream().flush();
      proxy.heal();

      byte[] got = accepted.getInputStream().readNBytes(4);
      assertThat(new String(got, StandardCharsets.UTF_8)).isEqualTo("late");
    }
  }
}
