package dev.converge.operator.internal;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategyRule;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks at start that every kind a strategy selection names exists: a kind one of the operator's
 * classes describes does; any other must be served by the API server (discovery). A misspelt key
 * such as {@code apps/v1/Deploymnet} would otherwise never match an object, and its kind would
 * quietly be written with the default strategy.
 */
public final class StrategyKindCheck {

  private static final Logger log = LoggerFactory.getLogger(StrategyKindCheck.class);

  private StrategyKindCheck() {}

  /**
   * Checks that every kind the strategy selection names is served by the API server.
   *
   * @param known the kinds the operator's controllers and caches are made of
   * @throws StrategyConfigurationException naming the key, the nearest existing kind and the fix
   */
  public static void check(
      KubernetesClient client,
      StrategySelection selection,
      Collection<Class<? extends HasMetadata>> known) {
    Set<ApiKind> named = new LinkedHashSet<>(selection.perKind().keySet());
    for (StrategyRule rule : selection.rules()) {
      named.add(rule.kind());
    }
    Set<ApiKind> ours = new LinkedHashSet<>();
    for (Class<? extends HasMetadata> type : known) {
      ours.add(new ApiKind(HasMetadata.getApiVersion(type), HasMetadata.getKind(type)));
    }
    List<String> problems = new ArrayList<>();
    List<ApiKind> served = null;
    for (ApiKind kind : named) {
      if (ours.contains(kind)) {
        continue;
      }
      Optional<Boolean> exists = served(client, kind);
      if (exists.isEmpty() || exists.get()) {
        continue; // served, or discovery could not tell (logged)
      }
      if (served == null) {
        served = allServed(client);
        served.addAll(0, ours);
      }
      problems.add(
          kind
              + ": no such kind"
              + nearest(kind, served).map(n -> "; did you mean " + n + "?").orElse("")
              + " (the API server serves no "
              + kind.kind()
              + " in "
              + kind.apiVersion()
              + ")");
    }
    if (!problems.isEmpty()) {
      throw new StrategyConfigurationException(
          "The strategy selection names a kind that does not"
              + " exist: "
              + String.join("; ", problems)
              + ". Fix the key (apiVersion/Kind, as in"
              + " apps/v1/Deployment or v1/Service) in the strategy selection, or install the"
              + " CustomResourceDefinition of the kind before the operator starts.");
    }
  }

  private static Optional<Boolean> served(KubernetesClient client, ApiKind kind) {
    try {
      APIResourceList resources = client.getApiResources(kind.apiVersion());
      if (resources == null) {
        return Optional.of(false);
      }
      return Optional.of(
          resources.getResources().stream()
              .anyMatch(r -> !r.getName().contains("/") && kind.kind().equals(r.getKind())));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.of(false);
      }
      log.warn("could not check that strategy key {} names a served kind: {}", kind, e.toString());
      return Optional.empty();
    }
  }

  /** Every kind the API server serves, in its preferred and other versions. */
  private static List<ApiKind> allServed(KubernetesClient client) {
    List<ApiKind> all = new ArrayList<>();
    try {
      List<String> versions = new ArrayList<>(List.of("v1"));
      for (APIGroup group : client.getApiGroups().getGroups()) {
        for (GroupVersionForDiscovery version : group.getVersions()) {
          versions.add(version.getGroupVersion());
        }
      }
      for (String version : versions) {
        APIResourceList list = client.getApiResources(version);
        if (list == null) {
          continue;
        }
        for (APIResource resource : list.getResources()) {
          if (!resource.getName().contains("/")) {
            all.add(new ApiKind(version, resource.getKind()));
          }
        }
      }
    } catch (KubernetesClientException e) {
      log.warn("could not list the API server's kinds for a suggestion: {}", e.toString());
    }
    return all;
  }

  /** The existing kind closest to {@code wrong} in spelling, when close enough to be a typo. */
  static Optional<ApiKind> nearest(ApiKind wrong, Collection<ApiKind> candidates) {
    String group =
        wrong.apiVersion().contains("/")
            ? wrong.apiVersion().substring(0, wrong.apiVersion().indexOf('/'))
            : "";
    for (ApiKind candidate : candidates) {
      // the right kind in a version the server does not serve: suggest a served version of it
      String candidateGroup =
          candidate.apiVersion().contains("/")
              ? candidate.apiVersion().substring(0, candidate.apiVersion().indexOf('/'))
              : "";
      if (candidate.kind().equals(wrong.kind()) && candidateGroup.equals(group)) {
        return Optional.of(candidate);
      }
    }
    String target = wrong.toString().toLowerCase(Locale.ROOT);
    ApiKind best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ApiKind candidate : new LinkedHashSet<>(candidates)) {
      int d = distance(target, candidate.toString().toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    int allowed = Math.max(2, wrong.kind().length() / 3);
    return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Edit distance with transpositions (optimal string alignment). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
