package dev.converge.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.crd.CrdGenerator;
import dev.converge.crd.CrdInstaller;
import dev.converge.testing.LocalCluster;
import dev.converge.testing.LocalClusterExtension;
import dev.converge.testing.TestNamespace;
import dev.converge.webhooks.sample.Gadget;
import dev.converge.webhooks.sample.GadgetSpec;
import dev.converge.webhooks.sample.GadgetV2;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The latency of a validating webhook, printed, never asserted: 1,000 calls made by kube-apiserver
 * (server-side dry-run creates, which run admission and store nothing) against 1,000 dry-run
 * creates with no webhook, and 1,000 direct HTTPS calls. Run with {@code webhooks/bench-latency.sh}
 * (it sets {@code -Dconverge.bench.webhooks=true}); {@code bin/test} skips it.
 */
@ExtendWith(LocalClusterExtension.class)
@EnabledIfSystemProperty(named = "converge.bench.webhooks", matches = "true")
class ValidatingLatencyBenchmarkIT {

  private static final int CALLS = Integer.getInteger("converge.bench.webhooks.calls", 1000);
  private static final int WARM_UP = 200;

  @Test
  void validatingCallLatency(LocalCluster cluster, KubernetesClient admin, TestNamespace ns)
      throws Exception {
    CrdInstaller.install(
        admin, CrdGenerator.generate(Gadget.class, GadgetV2.class), Duration.ofSeconds(30));
    String plain = "latency-nohook-" + Long.toHexString(System.nanoTime());
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(plain).endMetadata().build())
        .create();
    AtomicLong validated = new AtomicLong();
    Webhooks webhooks =
        Webhooks.builder()
            .validate(
                Gadget.class,
                admission -> {
                  validated.incrementAndGet();
                  Integer port = admission.object().getSpec().port();
                  return port != null && port > 65535
                      ? Verdict.deny("spec.port", "above 65535")
                      : Verdict.allow();
                },
                WebhookOptions.defaults()
                    .withNamespaceSelector(
                        new LabelSelectorBuilder()
                            .addToMatchLabels("kubernetes.io/metadata.name", ns.name())
                            .build()))
            .build();
    try (WebhookServer server =
        WebhookServer.builder(webhooks)
            .bindAddress("127.0.0.1")
            .port(0)
            .certificate(ServingCertificate.generateForLoopback())
            .start()) {
      WebhookInstaller.install(
          admin, webhooks, "latency-bench", ClientTarget.of(server), Duration.ofSeconds(30));
      try {
        long[] baseline = dryRunCreates(admin, plain);
        long before = validated.get();
        long[] throughServer = dryRunCreates(admin, ns.name());
        assertThat(validated.get() - before)
            .as("every dry-run create called the validator")
            .isEqualTo(CALLS + WARM_UP);
        long[] direct = directCalls(server, webhooks.admission().get(0).path());

        System.out.println();
        System.out.printf(
            "Validating webhook latency, %d calls each (after %d warm-up calls), %s%n",
            CALLS, WARM_UP, Runtime.getRuntime().availableProcessors() + " cores");
        System.out.println("| path | p50 | p90 | p99 | max |");
        System.out.println("|---|---|---|---|---|");
        row("dry-run create, no webhook (API server baseline)", baseline);
        row("dry-run create through the validating webhook", throughServer);
        row("direct HTTPS POST of an AdmissionReview (keep-alive)", direct);
        System.out.println();
      } finally {
        WebhookInstaller.uninstall(admin, webhooks, "latency-bench");
        admin.namespaces().withName(plain).delete();
      }
    }
  }

  private static long[] dryRunCreates(KubernetesClient client, String namespace) {
    long[] nanos = new long[CALLS];
    for (int i = -WARM_UP; i < CALLS; i++) {
      Gadget gadget = Gadget.of("bench-" + (i + WARM_UP), new GadgetSpec("red", 8080, null));
      long start = System.nanoTime();
      client.resources(Gadget.class).inNamespace(namespace).resource(gadget).dryRun().create();
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
    }
    return nanos;
  }

  private static long[] directCalls(WebhookServer server, String path) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry(
        "ca",
        CertificateFactory.getInstance("X.509")
            .generateCertificate(
                new ByteArrayInputStream(
                    server
                        .certificate()
                        .caBundle()
                        .orElseThrow()
                        .getBytes(StandardCharsets.US_ASCII))));
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, factory.getTrustManagers(), null);
    HttpClient http =
        HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
    String review =
        """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u",
         "operation":"CREATE","namespace":"bench","name":"g","userInfo":{"username":"bench"},
         "object":{"apiVersion":"samples.webhooks.converge.dev/v1","kind":"Gadget",
          "metadata":{"name":"g","namespace":"bench"},"spec":{"color":"red","port":8080}}}}""";
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(review))
            .build();
    long[] nanos = new long[CALLS];
    for (int i = -WARM_UP; i < CALLS; i++) {
      long start = System.nanoTime();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
      assertThat(response.body()).contains("\"allowed\":true");
    }
    return nanos;
  }

  private static void row(String label, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "| %s | %s | %s | %s | %s |%n",
        label,
        ms(sorted, 0.50),
        ms(sorted, 0.90),
        ms(sorted, 0.99),
        String.format("%.2f ms", sorted[sorted.length - 1] / 1e6));
  }

  private static String ms(long[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return String.format("%.2f ms", sorted[Math.max(0, index)] / 1e6);
  }
}
