package dev.converge.example;

import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.rbac.build.GenerateRbac;
import dev.converge.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Prints what the operator's RBAC watch costs: requests and time of one access review of the
 * AppDeployment operator (one SelfSubjectAccessReview per verb, resource and watched namespace) for
 * all namespaces, 1 and 10 namespaces, on a local control plane; and the time of the build step
 * that generates its roles. Not a test; run from example-operator after {@code mvn verify} (or
 * test-compile) with the test classpath, e.g. {@code mvn -q -pl example-operator exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=dev.converge.example.AccessReviewCost}.
 */
public final class AccessReviewCost {

  private AccessReviewCost() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Path out = Files.createTempDirectory("generate-rbac");
    long start = System.nanoTime();
    GenerateRbac.run(
        new String[] {
          "--factory",
          AppOperator.class.getName(),
          "--service-account-namespace",
          "app-operator",
          "--output",
          out.toString()
        },
        new PrintStream(OutputStream.nullOutputStream()));
    System.out.printf(
        "GenerateRbac, first call in this JVM (class loading included): %d ms%n",
        (System.nanoTime() - start) / 1_000_000);
    try (LocalCluster cluster = LocalCluster.start();
        KubernetesClient admin = cluster.newClient()) {
      Set<String> ten = new TreeSet<>();
      for (int i = 0; i < 10; i++) {
        String ns = "review-cost-" + i;
        admin
            .namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .serverSideApply();
        ten.add(ns);
      }
      System.out.printf(
          "%-16s %10s %12s %14s%n",
          "namespaces", "requests", "ms/review", "requests/hour at 5 min");
      measure(cluster, builder -> {}, "all", rounds);
      measure(cluster, builder -> builder.namespace("review-cost-0"), "1", rounds);
      measure(cluster, builder -> builder.namespaces(ten), "10", rounds);
    }
  }

  private static void measure(
      LocalCluster cluster, Consumer<OperatorBuilder> settings, String label, int rounds) {
    AtomicLong requests = new AtomicLong();
    Interceptor counter =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            requests.incrementAndGet();
          }
        };
    try (KubernetesClient client =
        cluster
            .clientBuilder()
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", counter))
            .build()) {
      Operator operator =
          new AppOperator().operator(builder -> settings.accept(builder.client(client)));
      operator.reviewAccess(); // warm up the connection
      requests.set(0);
      long start = System.nanoTime();
      for (int i = 0; i < rounds; i++) {
        operator.reviewAccess();
      }
      double ms = (System.nanoTime() - start) / 1e6 / rounds;
      long perReview = requests.get() / rounds;
      System.out.printf("%-16s %10d %12.1f %14d%n", label, perReview, ms, perReview * 12);
      operator.stop();
    }
  }
}
