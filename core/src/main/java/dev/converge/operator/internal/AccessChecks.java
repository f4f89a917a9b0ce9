package dev.converge.operator.internal;

import dev.converge.metrics.ControllerMetrics;
import dev.converge.rbac.AccessRule;
import dev.converge.rbac.OperatorPermissions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches over the operator's RBAC while it runs. A watch that was open keeps delivering after its
 * rules are removed, so informers alone do not notice; a write, a re-list, a status patch or a
 * Lease renewal is refused only when it happens. Two sources therefore feed {@link #problems()}:
 *
 * <ul>
 *   <li><b>access reviews</b>: at start and then every {@code interval}, one
 *       SelfSubjectAccessReview per verb, resource and watched namespace of the operator's {@link
 *       OperatorPermissions} (every authenticated account may ask); the API server's own authorizer
 *       answers;
 *   <li><b>refusals</b>: a 403 Forbidden of RBAC a reconcile ran into (a strategy write, a status
 *       patch, a finalizer patch, a read by hand), parsed from the API server's message.
 * </ul>
 *
 * <p>A 403 that is not RBAC's (a ResourceQuota exceeded, a namespace being deleted, Pod Security,
 * another admission plugin) is no missing permission: it is left to {@link
 * dev.converge.reconcile.Refusal}, reported on the object, and never makes the operator not ready.
 *
 * <p>While anything is denied or refused the reviews run every few seconds (at most {@code
 * interval}), so a restored rule clears the problem soon after.
 */
public final class AccessChecks {

  private static final Logger log = LoggerFactory.getLogger(AccessChecks.class);

  /**
   * The most distinct refused accesses kept (verb, resource, namespace): beyond it a refusal is
   * still logged and counted, but not remembered, so an operator over many namespaces cannot grow
   * the set without bound.
   */
  static final int MAX_REFUSED = 256;

  /** How often reviews run while something is denied or was refused. */
  static final Duration WHILE_DENIED = Duration.ofSeconds(3);

  /**
   * The API server's RBAC refusal: {@code cannot patch resource "deployments" in API group "apps"}.
   */
  private static final Pattern FORBIDDEN =
      Pattern.compile(
          "cannot (\\S+) resource \"([^\"]+)\" in API group \"([^\"]*)\"(?: in the namespace \"([^\"]*)\")?");

  /** One verb on one resource in one namespace (empty: cluster-wide). */
  record Access(String group, String resource, String verb, String namespace) {
    String describe() {
      int slash = resource.indexOf('/');
      String base = slash < 0 ? resource : resource.substring(0, slash);
      String qualified =
          base
              + (group.isEmpty() ? "" : "." + group)
              + (slash < 0 ? "" : resource.substring(slash));
      return verb
          + " "
          + qualified
          + (namespace.isEmpty() ? " (cluster-wide)" : " in namespace " + namespace);
    }

    String meterResource() {
      int slash = resource.indexOf('/');
      String base = slash < 0 ? resource : resource.substring(0, slash);
      return base
          + (group.isEmpty() ? "" : "." + group)
          + (slash < 0 ? "" : resource.substring(slash));
    }
  }

  /** A 403 a reconcile ran into. */
  private static final class Refusal {
    final String message;
    final java.util.concurrent.atomic.AtomicLong count =
        new java.util.concurrent.atomic.AtomicLong();
    volatile String lastWhere;
    volatile Instant last;

    Refusal(String message) {
      this.message = message;
    }
  }

  private final KubernetesClient client;
  private final String operatorName;
  private final ControllerMetrics metrics;
  private final Duration interval;

  /** What the operator needs, with why, in review order. */
  private final Map<Access, String> needed = new LinkedHashMap<>();

  private final Map<Access, String> denied = new ConcurrentHashMap<>();
  private final Map<Access, Refusal> refused = new ConcurrentHashMap<>();
  private final Set<Access> metered = ConcurrentHashMap.newKeySet();
  private final java.util.concurrent.atomic.AtomicBoolean overflowSaid =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile String reviewFailure;
  private volatile boolean reviewsRan;
  private ScheduledExecutorService scheduler;
  private ScheduledFuture<?> next;
  private volatile boolean stopped;

  /**
   * @param namespaces the watched namespaces; empty for all (namespaced rules are then reviewed
   *     cluster-wide)
   * @param interval how often to review while nothing is wrong; zero reviews only at start and
   *     after a refusal
   */
  public AccessChecks(
      KubernetesClient client,
      String operatorName,
      OperatorPermissions permissions,
      Set<String> namespaces,
      ControllerMetrics metrics,
      Duration interval) {
    this.client = client;
    this.operatorName = operatorName;
    this.metrics = metrics;
    this.interval = Objects.requireNonNull(interval, "interval");
    for (AccessRule rule : permissions.clusterRules()) {
      List<String> scopes =
          rule.namespaced() && !namespaces.isEmpty()
              ? List.copyOf(new TreeSet<>(namespaces))
              : List.of("");
      need(rule, scopes);
    }
    permissions
        .leaseNamespace()
        .ifPresent(ns -> permissions.leaseRules().forEach(rule -> need(rule, List.of(ns))));
  }

  private void need(AccessRule rule, List<String> scopes) {
    String why = String.join("; ", rule.reasons());
    for (String verb : rule.verbs()) {
      for (String ns : scopes) {
        Access access = new Access(rule.group(), rule.resource(), verb, ns);
        needed.merge(access, why, (a, b) -> a + "; " + b);
        meter(access);
      }
    }
  }

  private void meter(Access access) {
    if (metered.add(access)) {
      metrics.accessDenied(
          access.meterResource(),
          access.verb(),
          access.namespace(),
          () -> denied.containsKey(access) || refused.containsKey(access) ? 1 : 0);
    }
  }

  /** Reviews now, then keeps reviewing on a thread of its own. */
  public synchronized void start() {
    if (scheduler != null || stopped) {
      return;
    }
    scheduler = DaemonScheduler.named("converge-" + operatorName + "-access-checks");
    schedule(Duration.ZERO);
  }

  public synchronized void stop() {
    stopped = true;
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  private synchronized void schedule(Duration delay) {
    if (stopped || scheduler == null) {
      return;
    }
    if (next != null && !next.isDone()) {
      if (next.getDelay(TimeUnit.MILLISECONDS) <= delay.toMillis()) {
        return; // an earlier review is already planned
      }
      next.cancel(false);
    }
    next = scheduler.schedule(this::reviewAndReschedule, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void reviewAndReschedule() {
    try {
      reviewNow();
    } catch (RuntimeException e) {
      log.warn("operator {}: access review failed: {}", operatorName, e.toString());
    }
    synchronized (this) {
      next = null; // this run: done, whatever its future says while it still runs
    }
    boolean troubled = !denied.isEmpty() || !refused.isEmpty();
    if (troubled) {
      schedule(interval.isZero() || interval.compareTo(WHILE_DENIED) > 0 ? WHILE_DENIED : interval);
    } else if (!interval.isZero()) {
      schedule(interval);
    }
  }

  /**
   * Asks the API server about every access the operator needs and every one it was refused; on the
   * calling thread.
   */
  public void reviewNow() {
    Map<Access, String> toReview = new LinkedHashMap<>(needed);
    refused.keySet().forEach(a -> toReview.putIfAbsent(a, "refused before"));
    if (interval.isZero() && refused.isEmpty() && denied.isEmpty() && reviewsRan) {
      return;
    }
    for (Map.Entry<Access, String> entry : toReview.entrySet()) {
      Access access = entry.getKey();
      Optional<Boolean> allowed = review(access);
      if (allowed.isEmpty()) {
        return; // the review itself failed; reported by reviewFailure
      }
      if (allowed.get()) {
        if (denied.remove(access) != null) {
          log.info("operator {}: RBAC allows {} again", operatorName, access.describe());
        }
        if (refused.remove(access) != null) {
          log.info(
              "operator {}: RBAC allows {} again (it was refused before)",
              operatorName,
              access.describe());
        }
      } else if (denied.put(access, entry.getValue()) == null) {
        log.error(
            "operator {}: RBAC does not allow {}, which it needs for {}. {}",
            operatorName,
            access.describe(),
            entry.getValue(),
            fix());
      }
    }
    reviewsRan = true;
  }

  private Optional<Boolean> review(Access access) {
    int slash = access.resource().indexOf('/');
    String resource = slash < 0 ? access.resource() : access.resource().substring(0, slash);
    String subresource = slash < 0 ? null : access.resource().substring(slash + 1);
    SelfSubjectAccessReview review =
        new SelfSubjectAccessReviewBuilder()
            .withNewSpec()
            .withNewResourceAttributes()
            .withGroup(access.group())
            .withResource(resource)
            .withSubresource(subresource)
            .withVerb(access.verb())
            .withNamespace(access.namespace().isEmpty() ? null : access.namespace())
            .endResourceAttributes()
            .endSpec()
            .build();
    try {
      SelfSubjectAccessReview answer =
          client.authorization().v1().selfSubjectAccessReview().create(review);
      if (reviewFailure != null) {
        log.info("operator {}: access reviews work again", operatorName);
      }
      reviewFailure = null;
      return Optional.of(
          answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed()));
    } catch (KubernetesClientException e) {
      String failure =
          "cannot review its RBAC access (SelfSubjectAccessReview: HTTP "
              + e.getCode()
              + " "
              + firstLine(e.getMessage())
              + "); refusals are still reported as they happen";
      if (!failure.equals(reviewFailure)) {
        log.warn("operator {}: {}", operatorName, failure);
      }
      reviewFailure = failure;
      return Optional.empty();
    }
  }

  /**
   * Records a 403 Forbidden found in {@code failure} (anywhere in its causes).
   *
   * @param where what was being done, e.g. {@code AppDeployment shop/web}
   * @param owner the primary kind being reconciled (the owner, when the admission plugin refused a
   *     {@code blockOwnerDeletion} owner reference)
   * @param namespace the primary's namespace
   * @return a one-line explanation naming the verb, the resource and the fix, if it was an RBAC
   *     refusal; empty for any other failure, including a 403 of an admission plugin
   */
  public Optional<String> refused(
      Throwable failure, String where, Class<? extends HasMetadata> owner, String namespace) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException kce && kce.getCode() == 403) {
        String message =
            kce.getStatus() != null && kce.getStatus().getMessage() != null
                ? kce.getStatus().getMessage()
                : String.valueOf(kce.getMessage());
        Matcher m = FORBIDDEN.matcher(message);
        Access access;
        if (m.find()) {
          access = new Access(m.group(3), m.group(2), m.group(1), Objects.toString(m.group(4), ""));
        } else if (message.contains("blockOwnerDeletion")) {
          // OwnerReferencesPermissionEnforcement: the owner's finalizers may not be updated
          access =
              new Access(
                  Objects.toString(HasMetadata.getGroup(owner), ""),
                  HasMetadata.getPlural(owner) + "/finalizers",
                  "update",
                  Namespaced.class.isAssignableFrom(owner) ? Objects.toString(namespace, "") : "");
        } else {
          // Quota, a terminating namespace, Pod Security, another admission plugin: not a
          // permission any review could find missing (Refusal classifies these).
          return Optional.empty();
        }
        metrics.accessRefused(access.meterResource(), access.verb());
        Refusal refusal =
            refused.size() < MAX_REFUSED || refused.containsKey(access)
                ? refused.computeIfAbsent(access, a -> new Refusal(firstLine(message)))
                : null;
        if (refusal != null) {
          refusal.count.incrementAndGet();
          refusal.lastWhere = where;
          refusal.last = Instant.now();
          meter(access);
        } else if (overflowSaid.compareAndSet(false, true)) {
          log.warn(
              "operator {}: more than {} distinct RBAC refusals; further ones are logged but not"
                  + " remembered for health until the ones remembered are allowed again",
              operatorName,
              MAX_REFUSED);
        }
        schedule(Duration.ofSeconds(1));
        return Optional.of(
            "the API server refused "
                + access.describe()
                + " (403 Forbidden: "
                + firstLine(message)
                + "). "
                + fix());
      }
    }
    return Optional.empty();
  }

  private String fix() {
    return "Grant it in the operator's ClusterRole (the one generated from the operator, see"
        + " dev.converge.rbac.build.GenerateRbac, has it)";
  }

  /** One line per access denied by the last review or refused since, for health. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    denied.forEach(
        (access, why) -> {
          Refusal refusal = refused.get(access);
          problems.add(
              "RBAC: may not "
                  + access.describe()
                  + ", needed for "
                  + why
                  + (refusal == null
                      ? ""
                      : "; the API server refused it "
                          + refusal.count.get()
                          + " time(s), last at "
                          + refusal.last
                          + " for "
                          + refusal.lastWhere)
                  + ". "
                  + fix());
        });
    refused.forEach(
        (access, refusal) -> {
          if (!denied.containsKey(access)) {
            problems.add(
                "RBAC: the API server refused "
                    + access.describe()
                    + " "
                    + refusal.count.get()
                    + " time(s), last at "
                    + refusal.last
                    + " for "
                    + refusal.lastWhere
                    + ": "
                    + refusal.message
                    + ". "
                    + fix());
          }
        });
    String failure = reviewFailure;
    if (failure != null && !refused.isEmpty()) {
      problems.add(failure);
    }
    return problems;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "(no message)";
    }
    int newline = text.indexOf('\n');
    String line = newline < 0 ? text : text.substring(0, newline);
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }
}
