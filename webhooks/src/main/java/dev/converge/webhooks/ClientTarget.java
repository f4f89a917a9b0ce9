package dev.converge.webhooks;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the API server sends webhook requests: a URL (local runs: {@code https://127.0.0.1:port})
 * or a Service in the cluster, and the CA bundle it verifies the server with.
 *
 * @param baseUrl {@code https://host:port}, without a path, when the form is a URL
 * @param serviceNamespace the Service's namespace, when the form is a Service
 * @param serviceName the Service's name, when the form is a Service
 * @param servicePort the Service's port (443 by default)
 * @param caBundlePem the PEM the API server trusts for this server; empty leaves {@code caBundle}
 *     out (then something else must fill it, e.g. cert-manager's CA injector)
 */
public record ClientTarget(
    Optional<String> baseUrl,
    String serviceNamespace,
    String serviceName,
    int servicePort,
    Optional<String> caBundlePem) {

  /**
   * Checks the target and drops a trailing slash from the URL.
   *
   * @param baseUrl {@code https://host:port}, without a path, when the form is a URL
   * @param serviceNamespace the Service's namespace, when the form is a Service
   * @param serviceName the Service's name, when the form is a Service
   * @param servicePort the Service's port (443 by default)
   * @param caBundlePem the PEM the API server trusts for this server; empty leaves {@code caBundle}
   *     out (then something else must fill it, e.g. cert-manager's CA injector)
   * @throws IllegalArgumentException when there is neither a URL nor a Service, or the URL is not
   *     {@code https://}
   */
  public ClientTarget {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(caBundlePem, "caBundlePem");
    if (baseUrl.isEmpty() && (serviceNamespace.isBlank() || serviceName.isBlank())) {
      throw new IllegalArgumentException(
          "a webhook target needs a URL or a Service namespace and name");
    }
    baseUrl.ifPresent(
        url -> {
          if (!url.startsWith("https://")) {
            throw new IllegalArgumentException(
                "the API server calls webhooks over HTTPS only; the URL "
                    + url
                    + " must start with https://");
          }
        });
    baseUrl = baseUrl.map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
  }

  /**
   * {@return the target {@code https://host:port}, trusted through {@code caBundlePem}}
   *
   * @param baseUrl {@code https://host:port}, without a path
   * @param caBundlePem the PEM of the CA the API server verifies the server with
   */
  public static ClientTarget url(String baseUrl, String caBundlePem) {
    return new ClientTarget(Optional.of(baseUrl), "", "", 0, Optional.of(caBundlePem));
  }

  /**
   * {@return the target Service {@code namespace/name} on {@code port}, with no CA bundle yet}
   *
   * @param namespace the Service's namespace
   * @param name the Service's name
   * @param port the Service's port
   */
  public static ClientTarget service(String namespace, String name, int port) {
    return new ClientTarget(Optional.empty(), namespace, name, port, Optional.empty());
  }

  /**
   * {@return the target for a local server: {@code https://127.0.0.1:<port>} with its CA}
   *
   * @param server a started server whose certificate knows its CA
   * @throws IllegalArgumentException when the server's certificate has no CA bundle
   */
  public static ClientTarget of(WebhookServer server) {
    return url(
        "https://127.0.0.1:" + server.port(),
        server
            .certificate()
            .caBundle()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the server's certificate has no CA bundle; give one")));
  }

  /**
   * {@return this target with {@code pem} as its CA bundle}
   *
   * @param pem the PEM of the CA the API server verifies the server with
   */
  public ClientTarget withCaBundle(String pem) {
    return new ClientTarget(baseUrl, serviceNamespace, serviceName, servicePort, Optional.of(pem));
  }

  /** The CA bundle as the API objects carry it (base64 of the PEM), when known. */
  Optional<String> caBundleBase64() {
    return caBundlePem.map(
        pem -> Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8)));
  }
}
