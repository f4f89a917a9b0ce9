package dev.converge.testing;

import java.util.concurrent.TimeUnit;

/** The child JVM of {@link ProcessLauncherTest}: does what its first argument says. */
public final class LauncherChild {

  private LauncherChild() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "echo" -> {
        System.out.println("out " + args[1] + " " + System.getenv("LAUNCHER_TEST"));
        System.err.println("err " + args[1]);
      }
      case "exit" -> {
        System.out.println("giving up");
        System.exit(Integer.parseInt(args[1]));
      }
      case "serve" -> {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> System.out.println("graceful shutdown")));
        System.out.println("listening on :" + args[1]);
        System.out.flush();
        Thread.sleep(TimeUnit.MINUTES.toMillis(10));
      }
      case "parent" -> {
        Process child = new ProcessBuilder("sleep", "600").start();
        System.out.println("child " + child.pid());
        System.out.flush();
        child.waitFor();
      }
      default -> throw new IllegalArgumentException(args[0]);
    }
  }
}
