package dev.converge.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.schema.ApiKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StrategyRulesAndDiscoveryTest {

  private static ResourceStrategy named(String name) {
    return new ResourceStrategy() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
        return ApplyResult.unchanged(desired);
      }
    };
  }

  private static final Map<String, ResourceStrategy> INSTALLED =
      Map.of("ssa", named("ssa"), "update", named("update"), "merge-patch", named("merge-patch"));

  private static Service service(String name, Map<String, String> labels) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("ns")
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  @Test
  void twoServicesOfOneOperatorGetDifferentStrategiesByNameOrLabel() {
    StrategySelector selector =
        new StrategySelector(
            INSTALLED,
            StrategySelection.parse(
                "v1/Service=update, v1/Service[name=*-metrics]=ssa,"
                    + " v1/Service[label:tier=cache]=merge-patch"));

    assertThat(selector.forResource(service("web", Map.of())).name()).isEqualTo("update");
    assertThat(selector.forResource(service("web-metrics", Map.of())).name()).isEqualTo("ssa");
    assertThat(selector.forResource(service("redis", Map.of("tier", "cache"))).name())
        .isEqualTo("merge-patch");
    // The first matching rule wins.
    assertThat(selector.forResource(service("redis-metrics", Map.of("tier", "cache"))).name())
        .isEqualTo("ssa");
    // A rule is for its kind only.
    var configMap =
        new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
            .withNewMetadata()
            .withName("x-metrics")
            .endMetadata()
            .build();
    assertThat(selector.forResource(configMap).name()).isEqualTo("ssa");
  }

  @Test
  void rulesBuiltInCodeMatchTheirTextForm() {
    ApiKind service = ApiKind.parse("v1/Service");
    StrategySelection selection =
        StrategySelection.all("update").with(StrategyRule.byName(service, "db-*-primary", "ssa"));

    assertThat(selection.strategyFor(service("db-eu-primary", Map.of()))).isEqualTo("ssa");
    assertThat(selection.strategyFor(service("db-eu-replica", Map.of()))).isEqualTo("update");
    assertThat(selection.strategyFor(service("xdb-eu-primary", Map.of()))).isEqualTo("update");
    assertThat(selection.rules().get(0)).hasToString("v1/Service[name=db-*-primary]=ssa");
  }

  @Test
  void aRuleNamingAnUninstalledStrategyFailsAtStartupNamingTheRule() {
    StrategySelection selection = StrategySelection.parse("default=ssa, v1/Service[name=a*]=fast");

    assertThatThrownBy(() -> new StrategySelector(INSTALLED, selection))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'fast' (for v1/Service[name=a*])");
  }

  @Test
  void anUnknownRuleConditionNamesTheForms() {
    assertThatThrownBy(() -> StrategySelection.parse("v1/Service[namespace=a]=ssa"))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("[name=<pattern>]")
        .hasMessageContaining("[label:<key>=<value>]");
  }

  @Test
  void anExplicitNameMustBeInstalled() {
    StrategySelector selector = new StrategySelector(INSTALLED, StrategySelection.defaults());

    assertThat(selector.named("update").name()).isEqualTo("update");
    assertThatThrownBy(() -> selector.named("updat"))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'updat'")
        .hasMessageContaining("[merge-patch, ssa, update]");
  }

  @Test
  void aStrategyWithAServicesEntryIsFoundWithoutGuice(@TempDir Path dir) throws IOException {
    try (URLClassLoader loader = withServicesEntry(dir, NoArgTestStrategy.class.getName())) {
      StrategySelector selector =
          StrategySelector.discover(StrategySelection.all("no-arg-test"), loader);

      assertThat(selector.installed()).containsKey("no-arg-test");
      assertThat(selector.forResource(service("web", Map.of())))
          .isInstanceOf(NoArgTestStrategy.class);
    }
  }

  @Test
  void twoClassesClaimingOneNameAreRejectedNamingBoth() {
    Map<String, ResourceStrategy> found = new java.util.TreeMap<>();
    StrategyDiscovery.add(found, new NoArgTestStrategy());
    StrategyDiscovery.add(found, new NoArgTestStrategy()); // the same class twice is one strategy

    assertThatThrownBy(() -> StrategyDiscovery.add(found, named("no-arg-test")))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("Two strategies are named 'no-arg-test'")
        .hasMessageContaining(NoArgTestStrategy.class.getName());
  }

  @Test
  void aListedClassThatCannotBeLoadedIsAClearError(@TempDir Path dir) throws IOException {
    try (URLClassLoader loader = withServicesEntry(dir, "com.example.Missing")) {
      assertThatThrownBy(() -> StrategyDiscovery.find(loader))
          .isInstanceOf(StrategyConfigurationException.class)
          .hasMessageContaining("META-INF/services/dev.converge.strategy.ResourceStrategy")
          .hasMessageContaining("no-argument constructor");
    }
  }

  private static URLClassLoader withServicesEntry(Path dir, String className) throws IOException {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(ResourceStrategy.class.getName()), className + "\n");
    return new URLClassLoader(
        new URL[] {dir.toUri().toURL()}, StrategyRulesAndDiscoveryTest.class.getClassLoader());
  }
}
