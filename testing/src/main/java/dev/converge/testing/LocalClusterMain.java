package dev.converge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a local cluster for a person and keeps it running until Ctrl-C: {@code bin/cluster}.
 *
 * <p>Prints the kubeconfig to use. With an argument, also copies the kubeconfig to that path.
 */
public final class LocalClusterMain {
  private LocalClusterMain() {}

  /**
   * Starts the cluster, prints the kubeconfig to use and keeps the cluster running until Ctrl-C.
   *
   * @param args nothing, or the path to copy the kubeconfig to
   * @throws InterruptedException when the main thread is interrupted while it waits
   * @throws IOException when the kubeconfig cannot be copied
   */
  public static void main(String[] args) throws InterruptedException, IOException {

    LocalCluster cluster = LocalCluster.start();
    Path kubeconfig = cluster.kubeconfig();
    if (args.length > 0) {
      Path target = Path.of(args[0]).toAbsolutePath();
      Files.createDirectories(target.getParent());
      kubeconfig = Files.copy(kubeconfig, target, StandardCopyOption.REPLACE_EXISTING);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("\nstopping the local cluster ...");
                  cluster.close();
                  stopped.countDown();
                }));
    System.out.printf(
        "%nLocal cluster ready in %.1f s: %s%n%n  export KUBECONFIG=%s%n  kubectl get nodes%n%n"
            + "Stop it with Ctrl-C (or kill %d); everything it started stops and its files are removed.%n",
        cluster.startupTime().toMillis() / 1000.0,
        cluster.config().getMasterUrl(),
        kubeconfig,
        ProcessHandle.current().pid());
    System.out.flush();
    stopped.await();
  }
}
