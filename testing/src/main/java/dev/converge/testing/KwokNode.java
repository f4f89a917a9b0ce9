package dev.converge.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A fake Node for kwok: the local control plane has no kubelet, so pods are scheduled onto Nodes
 * that kwok keeps {@code Ready} and whose pods it reports Running. kwok manages only the Nodes
 * annotated {@code kwok.x-k8s.io/node=fake} (the selector the local cluster starts it with); the
 * rest of the Node is what the scheduler and the controllers read: its capacity, its os and arch
 * labels, its node info.
 *
 * <pre>{@code
 * client.nodes().resource(KwokNode.named("kwok-bench-0").pods(250).build()).serverSideApply();
 * client.nodes().withName("kwok-bench-0").waitUntilCondition(KwokNode::isReady, 60, SECONDS);
 * }</pre>
 */
public final class KwokNode {

  /** The annotation kwok selects the Nodes it manages by. */
  public static final String MANAGED_ANNOTATION = "kwok.x-k8s.io/node";

  /** The value of {@link #MANAGED_ANNOTATION} the local cluster's kwok manages. */
  public static final String MANAGED_VALUE = "fake";

  private final String name;
  private String cpu = "64";
  private String memory = "512Gi";
  private int pods = 110;
  private final Map<String, String> labels = new LinkedHashMap<>();

  private KwokNode(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * A node of that name: 64 CPUs, 512 GiB of memory, 110 pods (a kubelet's default).
   *
   * @param name the Node's name, also its {@code kubernetes.io/hostname} label
   * @return a builder; nothing is sent to the cluster
   */
  public static KwokNode named(String name) {
    return new KwokNode(name);
  }

  /**
   * The CPUs the node offers (capacity and allocatable), a quantity such as {@code "64"}.
   *
   * @param quantity the CPUs, as a Kubernetes quantity
   * @return this builder
   */
  public KwokNode cpu(String quantity) {
    this.cpu = Objects.requireNonNull(quantity, "quantity");
    return this;
  }

  /**
   * The memory the node offers, a quantity such as {@code "512Gi"}.
   *
   * @param quantity the memory, as a Kubernetes quantity
   * @return this builder
   */
  public KwokNode memory(String quantity) {
    this.memory = Objects.requireNonNull(quantity, "quantity");
    return this;
  }

  /**
   * The most pods the scheduler places on the node.
   *
   * @param count at least 1
   * @return this builder
   * @throws IllegalArgumentException if {@code count} is below 1, naming the Node
   */
  public KwokNode pods(int count) {
    if (count < 1) {
      throw new IllegalArgumentException(
          "Node " + name + ": status.capacity.pods must be at least 1, got " + count);
    }
    this.pods = count;
    return this;
  }

  /**
   * A label more (for node selectors and affinities of the pods under test).
   *
   * @param key the label's key; a key set before, or one of the Node's own labels, is replaced
   * @param value the label's value
   * @return this builder
   */
  public KwokNode label(String key, String value) {
    labels.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /**
   * The Node to create; its status is the one kwok then keeps up to date.
   *
   * @return a new Node, annotated for kwok, labelled {@code linux}/{@code amd64} and {@code
   *     type=kwok} besides the labels given
   */
  public Node build() {
    Map<String, Quantity> resources =
        Map.of(
            "cpu",
            new Quantity(cpu),
            "memory",
            new Quantity(memory),
            "pods",
            new Quantity(Integer.toString(pods)));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToAnnotations(MANAGED_ANNOTATION, MANAGED_VALUE)
        .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
        .addToLabels("kubernetes.io/hostname", name)
        .addToLabels("kubernetes.io/os", "linux")
        .addToLabels("kubernetes.io/arch", "amd64")
        .addToLabels("type", "kwok")
        .addToLabels(labels)
        .endMetadata()
        .withNewStatus()
        .withAllocatable(resources)
        .withCapacity(resources)
        .withNewNodeInfo()
        .withArchitecture("amd64")
        .withOperatingSystem("linux")
        .withKubeletVersion("fake")
        .withKubeProxyVersion("fake")
        .withContainerRuntimeVersion("kwok")
        .withOsImage("kwok")
        .withKernelVersion("kwok")
        .withBootID("")
        .withMachineID("")
        .withSystemUUID("")
        .endNodeInfo()
        .endStatus()
        .build();
  }

  /**
   * True when the node's {@code Ready} condition is {@code True}; false for a missing node or one
   * without conditions yet (kwok has not taken it over).
   *
   * @param node a Node read from the cluster, or null when it does not exist
   * @return whether the scheduler may place pods on it
   */
  public static boolean isReady(Node node) {
    return node != null
        && node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
