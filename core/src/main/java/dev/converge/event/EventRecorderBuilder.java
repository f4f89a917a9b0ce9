package dev.converge.event;

import dev.converge.event.internal.AggregatingEventWriter;
import dev.converge.event.internal.AsyncEventRecorder;
import dev.converge.metrics.ControllerMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Configures an {@link EventRecorder}. Only the component is required.
 *
 * <pre>{@code
 * EventRecorder events = EventRecorder.builder(client)
 *     .component("app-operator")          // source.component and reportingComponent
 *     .instance(podName)                  // reportingInstance; defaults to the host name
 *     .build();
 * }</pre>
 *
 * <p>Defaults, in the spirit of client-go's event broadcaster and correlator: a queue of {@value
 * #DEFAULT_QUEUE_CAPACITY} waiting Events, and per involved object a burst of {@value
 * #DEFAULT_BURST} writes refilled by one every 5 minutes.
 */
public final class EventRecorderBuilder {

  /** Default number of distinct (object, type, reason, message) keys remembered for aggregation. */
  public static final int DEFAULT_CACHE_SIZE = 4096;

  /** Default number of Events waiting to be written before new ones are dropped. */
  public static final int DEFAULT_QUEUE_CAPACITY = 1000;

  /** Default number of writes one involved object may cause at once. */
  public static final int DEFAULT_BURST = 25;

  /** Default time in which an involved object earns one more write. */
  public static final Duration DEFAULT_REFILL = Duration.ofMinutes(5);

  private static final Pattern QUALIFIED =
      Pattern.compile(
          "^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$");

  private final KubernetesClient client;
  private String component;
  private String instance;
  private int cacheSize = DEFAULT_CACHE_SIZE;
  private Clock clock = Clock.systemUTC();
  private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
  private int burst = DEFAULT_BURST;
  private Duration refill = DEFAULT_REFILL;
  private ControllerMetrics metrics = ControllerMetrics.none();

  EventRecorderBuilder(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * The controller writing the Events, e.g. {@code app-operator} or {@code
   * example.com/app-operator}: {@code source.component} and {@code reportingComponent}.
   *
   * @param name a qualified name of at most 128 characters
   * @return this builder
   * @throws IllegalArgumentException when {@code name} is not a qualified name
   */
  public EventRecorderBuilder component(String name) {
    if (name == null || name.length() > 128 || !QUALIFIED.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "event component \""
              + name
              + "\" must be a qualified name"
              + " of at most 128 characters such as \"app-operator\" or \"example.com/app-operator\"");
    }
    this.component = name;
    return this;
  }

  /**
   * This replica of the controller ({@code reportingInstance}), e.g. the pod name; default: the
   * {@code HOSTNAME} environment variable, which is the pod name in a pod, or else the host name.
   *
   * @param name 1 to 128 characters
   * @return this builder
   * @throws IllegalArgumentException when {@code name} is blank or longer than 128 characters
   */
  public EventRecorderBuilder instance(String name) {
    if (name == null || name.isBlank() || name.length() > 128) {
      throw new IllegalArgumentException(
          "event reporting instance must be 1 to 128 characters," + " was \"" + name + "\"");
    }
    this.instance = name;
    return this;
  }

  /**
   * How many distinct event keys to remember for aggregation (least recently used are dropped);
   * default {@value #DEFAULT_CACHE_SIZE}. A repeat of a forgotten key makes a new Event instead of
   * counting up the old one.
   *
   * @param entries 1 or more
   * @return this builder
   * @throws IllegalArgumentException when {@code entries} is less than 1
   */
  public EventRecorderBuilder cacheSize(int entries) {
    if (entries < 1) {
      throw new IllegalArgumentException("event cache size must be at least 1, was " + entries);
    }
    this.cacheSize = entries;
    return this;
  }

  /**
   * How many distinct Events may wait to be written; more are dropped and counted. Default {@value
   * #DEFAULT_QUEUE_CAPACITY}.
   *
   * @param events 1 or more
   * @return this builder
   * @throws IllegalArgumentException when {@code events} is less than 1
   */
  public EventRecorderBuilder queueCapacity(int events) {
    if (events < 1) {
      throw new IllegalArgumentException("event queue capacity must be at least 1, was " + events);
    }
    this.queueCapacity = events;
    return this;
  }

  /**
   * Per involved object, at most {@code writes} Event writes at once, and one more each {@code
   * every}; Events beyond that are dropped and counted. Repeats folded into a waiting Event cost
   * nothing. Default: {@value #DEFAULT_BURST} writes, one more every 5 minutes.
   *
   * @param writes the burst, 1 or more
   * @param every the time in which an object earns one more write; positive
   * @return this builder
   * @throws IllegalArgumentException when {@code writes} is less than 1 or {@code every} is not
   *     positive
   */
  public EventRecorderBuilder rateLimit(int writes, Duration every) {
    if (writes < 1) {
      throw new IllegalArgumentException("event burst must be at least 1, was " + writes);
    }
    if (every == null || every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("event refill interval must be positive, was " + every);
    }
    this.burst = writes;
    this.refill = every;
    return this;
  }

  /**
   * Where dropped Events are counted ({@link ControllerMetrics#eventDropped}); default nowhere.
   *
   * @param sink the metrics of the operator
   * @return this builder
   */
  public EventRecorderBuilder metrics(ControllerMetrics sink) {
    this.metrics = Objects.requireNonNull(sink, "metrics");
    return this;
  }

  /**
   * Source of event timestamps and of the rate limit's time; default the system's UTC clock. Tests
   * pass a fixed clock.
   *
   * @param eventClock the clock
   * @return this builder
   */
  public EventRecorderBuilder clock(Clock eventClock) {
    this.clock = Objects.requireNonNull(eventClock, "clock");
    return this;
  }

  /**
   * Makes the recorder. Its background thread starts with the first Event; {@link
   * EventRecorder#close()} writes what is waiting and stops it.
   *
   * @return a recorder with these settings
   * @throws IllegalStateException when no component was set
   */
  public EventRecorder build() {
    if (component == null) {
      throw new IllegalStateException(
          "EventRecorder needs a component: call"
              + " .component(\"your-operator\") before build()");
    }
    String reportingInstance = instance != null ? instance : defaultInstance();
    ControllerMetrics sink = metrics;
    return new AsyncEventRecorder(
        new AggregatingEventWriter(client, component, reportingInstance, cacheSize),
        clock,
        queueCapacity,
        burst,
        refill,
        cacheSize,
        sink::eventDropped,
        "converge-events-" + component);
  }

  private static String defaultInstance() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        // No resolvable host name: Events still work, only reportingInstance is less telling.
        host = "unknown";
      }
    }
    return host.length() > 128 ? host.substring(0, 128) : host;
  }
}
