package dev.converge.webhooks.build;

import dev.converge.webhooks.ClientTarget;
import dev.converge.webhooks.WebhookManifests;
import dev.converge.webhooks.Webhooks;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The build step, run after compilation like crd-gen's {@code GenerateCrds}: writes the {@code
 * ValidatingWebhookConfiguration}, the {@code MutatingWebhookConfiguration} and, for each CRD with
 * a converter, the CRD with its conversion stanza, all pointing at a Service.
 *
 * <pre>
 * --webhooks CLASS      a class with a public no-argument constructor implementing
 *                       Supplier&lt;Webhooks&gt; (the same registrations the operator serves)
 * --service NS/NAME[:PORT]   the Service in front of the webhook server (port 443 by default)
 * --name NAME           name of the two configurations (default: the Service's name)
 * --crds DIR            folder of the CRD YAML files crd-gen wrote (needed for converters)
 * --output DIR          folder to write into
 * --inject-ca-from NS/CERTIFICATE   add cert-manager's annotation, so its CA injector fills caBundle
 * </pre>
 *
 * <p>Fails with an exception naming the argument or file (never by ending the JVM).
 */
public final class GenerateWebhookManifests {

  private static final String INJECT_CA = "cert-manager.io/inject-ca-from";

  private GenerateWebhookManifests() {}

  /**
   * The build step's entry point, for exec-maven-plugin or a plain {@code java} command; loads the
   * webhooks class through the thread's context class loader.
   *
   * @param args the options above
   */
  public static void main(String[] args) {
    List<Path> written = run(Arrays.asList(args), Thread.currentThread().getContextClassLoader());
    System.out.println("converge-webhooks: wrote " + written);
  }

  /**
   * Parses the arguments and writes the files.
   *
   * @param args the options above
   * @param loader where the {@code --webhooks} class is loaded from
   * @return the files written
   */
  public static List<Path> run(List<String> args, ClassLoader loader) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.size(); i += 2) {
      String option = args.get(i);
      if (!List.of("--webhooks", "--service", "--name", "--crds", "--output", "--inject-ca-from")
          .contains(option)) {
        throw new IllegalArgumentException("unknown option " + option + "; usage: " + usage());
      }
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(option + " needs a value; usage: " + usage());
      }
      options.put(option, args.get(i + 1));
    }
    for (String required : List.of("--webhooks", "--service", "--output")) {
      if (!options.containsKey(required)) {
        throw new IllegalArgumentException(required + " is required; usage: " + usage());
      }
    }
    Webhooks webhooks = load(options.get("--webhooks"), loader);
    ClientTarget target = service(options.get("--service"));
    String name = options.getOrDefault("--name", target.serviceName());
    Optional<String> injectCa = Optional.ofNullable(options.get("--inject-ca-from"));
    Path output = Path.of(options.get("--output"));
    KubernetesSerialization yaml = new KubernetesSerialization();
    List<Path> written = new ArrayList<>();
    try {
      Files.createDirectories(output);
      Optional<? extends HasMetadata> validating =
          WebhookManifests.validating(webhooks, name, target);
      Optional<? extends HasMetadata> mutating = WebhookManifests.mutating(webhooks, name, target);
      for (Optional<? extends HasMetadata> config : List.of(validating, mutating)) {
        if (config.isPresent()) {
          HasMetadata object = config.get();
          injectCa.ifPresent(ca -> annotate(object, ca));
          Path file =
              output.resolve(
                  name + "." + object.getKind().toLowerCase(java.util.Locale.ROOT) + ".yaml");
          Files.writeString(file, yaml.asYaml(object));
          written.add(file);
        }
      }
      if (!webhooks.conversion().isEmpty()) {
        if (!options.containsKey("--crds")) {
          throw new IllegalArgumentException(
              "converters are registered, so --crds must name the"
                  + " folder of the generated CRDs; usage: "
                  + usage());
        }
        for (String crdName :
            webhooks.conversion().stream().map(h -> h.crdName()).distinct().toList()) {
          Path source = Path.of(options.get("--crds")).resolve(crdName + ".yaml");
          if (!Files.isRegularFile(source)) {
            throw new IllegalArgumentException(
                "a converter is registered for "
                    + crdName
                    + ", but "
                    + source.toAbsolutePath()
                    + " does not exist; run crd-gen's GenerateCrds first");
          }
          CustomResourceDefinition crd =
              yaml.unmarshal(Files.readString(source), CustomResourceDefinition.class);
          CustomResourceDefinition converted =
              WebhookManifests.withConversion(crd, webhooks, target);
          injectCa.ifPresent(ca -> annotate(converted, ca));
          Path file = output.resolve(crdName + ".yaml");
          Files.writeString(file, yaml.asYaml(converted));
          written.add(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the webhook manifests into " + output, e);
    }
    return written;
  }

  private static void annotate(HasMetadata object, String certificate) {
    Map<String, String> annotations = new HashMap<>();
    if (object.getMetadata().getAnnotations() != null) {
      annotations.putAll(object.getMetadata().getAnnotations());
    }
    annotations.put(INJECT_CA, certificate);
    object.getMetadata().setAnnotations(annotations);
  }

  @SuppressWarnings("unchecked")
  private static Webhooks load(String className, ClassLoader loader) {
    Object instance;
    try {
      instance = Class.forName(className, true, loader).getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "--webhooks " + className + ": no such class on the" + " class path", e);
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
      throw new IllegalArgumentException(
          "--webhooks " + className + ": needs a public constructor without arguments", e);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(
          "--webhooks " + className + ": its constructor failed: " + e.getCause(), e.getCause());
    }
    if (!(instance instanceof Supplier<?> supplier) || !(supplier.get() instanceof Webhooks)) {
      throw new IllegalArgumentException(
          "--webhooks " + className + " must implement Supplier<Webhooks>");
    }
    return ((Supplier<Webhooks>) instance).get();
  }

  private static ClientTarget service(String text) {
    String[] nsAndRest = text.split("/", 2);
    if (nsAndRest.length != 2 || nsAndRest[0].isBlank() || nsAndRest[1].isBlank()) {
      throw new IllegalArgumentException("--service " + text + ": expected NAMESPACE/NAME[:PORT]");
    }
    String[] nameAndPort = nsAndRest[1].split(":", 2);
    int port = 443;
    if (nameAndPort.length == 2) {
      try {
        port = Integer.parseInt(nameAndPort[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--service " + text + ": the port is not a number", e);
      }
    }
    return ClientTarget.service(nsAndRest[0], nameAndPort[0], port);
  }

  private static String usage() {
    return "--webhooks CLASS --service NS/NAME[:PORT] [--name NAME] [--crds DIR] --output DIR"
        + " [--inject-ca-from NS/CERTIFICATE]";
  }
}
