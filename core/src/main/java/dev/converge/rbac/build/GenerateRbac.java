package dev.converge.rbac.build;

import dev.converge.operator.Operator;
import dev.converge.operator.OperatorFactory;
import dev.converge.rbac.AccessRule;
import dev.converge.rbac.OperatorPermissions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes an operator's RBAC manifests at build time, from the operator itself: its ClusterRole
 * (what its informers read, what its strategies write on the kinds it owns, status, finalizers,
 * Events) with the ClusterRoleBinding, and with leader election the Role for its Lease with the
 * RoleBinding. Nothing is kept by hand, so the role follows the code.
 *
 * <pre>
 * GenerateRbac --factory com.example.WidgetOperatorFactory
 *              --service-account-namespace widget-operator [--service-account widget-operator]
 *              [--name widget-operator] --output target/deploy [--output ...]
 * </pre>
 *
 * <p>{@code --factory} names an {@link OperatorFactory} (public, no-argument constructor) that
 * builds the operator as the program does; it gets a client that is never connected. The files are
 * {@code 20-clusterrole.yaml} and, with leader election, {@code 30-role-leader-election.yaml}
 * (change with {@code --cluster-role-file} and {@code --leader-election-file}). An error ends
 * {@code main} with an exception whose message says what is wrong (the build step fails with it;
 * the JVM is never ended from here, since exec:java runs this inside Maven's).
 */
public final class GenerateRbac {

  /** The name of the ClusterRole file unless {@code --cluster-role-file} says otherwise. */
  public static final String CLUSTER_ROLE_FILE = "20-clusterrole.yaml";

  /** The name of the Lease Role file unless {@code --leader-election-file} says otherwise. */
  public static final String LEADER_ELECTION_FILE = "30-role-leader-election.yaml";

  private GenerateRbac() {}

  /**
   * Runs the generator as a build step: see the class comment for the options.
   *
   * @param args the options
   * @throws IllegalStateException when an option is missing or unknown, the factory cannot be
   *     loaded or a file cannot be written, with a message that says what is wrong
   */
  public static void main(String[] args) {
    try {
      run(args, System.out);
    } catch (IllegalArgumentException
        | IllegalStateException
        | IOException
        | ReflectiveOperationException e) {
      throw new IllegalStateException("GenerateRbac: " + e.getMessage(), e);
    }
  }

  /**
   * Parses {@code args}, writes the files and reports each on {@code out}: {@link #main} without
   * the wrapping of its exceptions, for a build tool or test that calls the generator itself.
   *
   * @param args the options, as for {@link #main}
   * @param out where to report each file written
   * @return the files written, in the order of the {@code --output} directories, ClusterRole file
   *     first in each
   * @throws IllegalArgumentException if an option is missing, unknown or has no value, or the
   *     factory is no {@link OperatorFactory}
   * @throws IOException if a directory or file cannot be written
   * @throws ReflectiveOperationException if the factory class cannot be loaded or instantiated
   */
  public static List<Path> run(String[] args, PrintStream out)
      throws IOException, ReflectiveOperationException {
    String factory = null;
    String name = null;
    String serviceAccount = null;
    String serviceAccountNamespace = null;
    String clusterRoleFile = CLUSTER_ROLE_FILE;
    String leaderElectionFile = LEADER_ELECTION_FILE;
    List<Path> outputs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "--factory" -> factory = value;
        case "--name" -> name = value;
        case "--service-account" -> serviceAccount = value;
        case "--service-account-namespace" -> serviceAccountNamespace = value;
        case "--cluster-role-file" -> clusterRoleFile = value;
        case "--leader-election-file" -> leaderElectionFile = value;
        case "--output" -> outputs.add(Path.of(value));
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + flag
                    + "; expected"
                    + " --factory, --service-account-namespace, --service-account, --name, --output,"
                    + " --cluster-role-file, --leader-election-file");
      }
    }
    if (factory == null || serviceAccountNamespace == null || outputs.isEmpty()) {
      throw new IllegalArgumentException(
          "--factory CLASS, --service-account-namespace NS and" + " --output DIR are required");
    }
    Class<?> type = Class.forName(factory, true, Thread.currentThread().getContextClassLoader());
    if (!OperatorFactory.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(
          factory + " does not implement " + OperatorFactory.class.getName());
    }
    OperatorFactory operatorFactory = (OperatorFactory) type.getDeclaredConstructor().newInstance();
    Config offline =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("https://rbac-generator.invalid:6443")
            .build();
    Operator operator;
    OperatorPermissions permissions;
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(offline).build()) {
      operator = operatorFactory.create(client);
      permissions = operator.permissions();
      operator.stop();
    }
    String roleName = name != null ? name : operator.name();
    String account = serviceAccount != null ? serviceAccount : roleName;
    List<HasMetadata> manifests = permissions.manifests(roleName, serviceAccountNamespace, account);
    KubernetesSerialization yaml = new KubernetesSerialization();
    String header =
        "# Generated at build time by Converge's GenerateRbac from "
            + factory
            + "; do not edit,\n# change the operator and build again.\n";
    String clusterRole =
        header + comments(permissions.clusterRules()) + documents(yaml, manifests.subList(0, 2));
    Optional<String> leaderRole =
        manifests.size() > 2
            ? Optional.of(
                header
                    + comments(permissions.leaseRules())
                    + documents(yaml, manifests.subList(2, manifests.size())))
            : Optional.empty();
    List<Path> written = new ArrayList<>();
    for (Path dir : outputs) {
      Files.createDirectories(dir);
      written.add(write(dir.resolve(clusterRoleFile), clusterRole, out));
      if (leaderRole.isPresent()) {
        written.add(write(dir.resolve(leaderElectionFile), leaderRole.get(), out));
      }
    }
    return written;
  }

  private static String comments(List<AccessRule> rules) {
    StringBuilder text = new StringBuilder("#\n# Every rule, and what uses it:\n");
    for (AccessRule rule : rules) {
      text.append("#  - ")
          .append(rule.qualifiedResource())
          .append(' ')
          .append(String.join(",", rule.verbs()))
          .append('\n');
      for (String reason : rule.reasons()) {
        text.append("#      ").append(reason).append('\n');
      }
    }
    return text.toString();
  }

  private static String documents(KubernetesSerialization yaml, List<HasMetadata> objects) {
    List<String> docs = new ArrayList<>();
    for (HasMetadata object : objects) {
      String doc = yaml.asYaml(object);
      docs.add(doc.startsWith("---\n") ? doc.substring(4) : doc);
    }
    return String.join("---\n", docs);
  }

  private static Path write(Path file, String content, PrintStream out) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
    out.println("GenerateRbac: wrote " + file);
    return file;
  }
}
