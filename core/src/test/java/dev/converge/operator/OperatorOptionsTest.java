package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.schema.ApiKind;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelection;
import io.fabric8.kubernetes.client.Config;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class OperatorOptionsTest {

  private static final ApiKind DEPLOYMENT = ApiKind.parse("apps/v1/Deployment");
  private static final ApiKind SERVICE = ApiKind.parse("v1/Service");
  private static final ApiKind CONFIG_MAP = ApiKind.parse("v1/ConfigMap");
  private static final StrategySelection DEFAULTS =
      StrategySelection.parse("default=ssa, v1/Service=update");

  @Command(name = "test-operator")
  static final class TestCommand {
    @Mixin OperatorOptions options = new OperatorOptions();
  }

  private static OperatorOptions parse(String... args) {
    TestCommand command = new TestCommand();
    new CommandLine(command).parseArgs(args);
    return command.options;
  }

  @Test
  void withoutFlagsEverythingHasItsDefault() throws Exception {
    OperatorOptions options = parse();
    assertThat(options.namespaces()).isEmpty();
    assertThat(options.strategies(DEFAULTS)).isEqualTo(DEFAULTS);
    assertThat(options.leaderElection("test-operator")).isEmpty();
    assertThat(options.applyTo(new OperatorBuilder(null)).httpPort).isEqualTo(8081);
  }

  @Test
  void dryRunAndItsOutputFormatComeFromTheFlags() {
    OperatorBuilder none = parse().applyTo(new OperatorBuilder(null));
    assertThat(none.dryRun).isFalse();
    assertThat(none.dryRunOutput).isEqualTo(DryRunReport.Format.TEXT);

    OperatorBuilder json =
        parse("--dry-run", "--dry-run-output=json", "--leader-elect")
            .applyTo(new OperatorBuilder(null));
    assertThat(json.dryRun).isTrue();
    assertThat(json.dryRunOutput).isEqualTo(DryRunReport.Format.JSON);

    assertThatThrownBy(
            () -> parse("--dry-run", "--dry-run-output=yaml").applyTo(new OperatorBuilder(null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--dry-run-output must be text or json, was \"yaml\"");
  }

  @Test
  void theShardRingIsTheOperatorsLeaseWhenShardedAndNothingOtherwise() {
    assertThat(parse().shardRing("test-operator")).isEmpty();
    assertThat(parse("--leader-elect").shardRing("test-operator"))
        .as("leader election alone shares nothing out")
        .isEmpty();

    OperatorOptions sharded =
        parse("--sharded", "--leader-election-namespace=ops", "--leader-election-id=pod-1");
    assertThat(sharded.shardRing("test-operator"))
        .hasValueSatisfying(
            ring -> {
              assertThat(ring.leaseNamespace()).isEqualTo("ops");
              assertThat(ring.leaseName()).isEqualTo("test-operator");
              assertThat(ring.identity()).isEqualTo("pod-1");
            });
    OperatorBuilder builder = sharded.applyTo(new OperatorBuilder(null).name("test-operator"));
    assertThat(builder.leaderElection).isEqualTo(sharded.shardRing("test-operator"));
  }

  @Test
  void namespacesAreRepeatableAndCommaSeparated() {
    assertThat(parse("-n", "a,b", "--namespace", "c").namespaces())
        .containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void strategyFlagsOverrideOneKindEachAndSetTheDefaultOnlyWhenAsked() throws Exception {
    StrategySelection one = parse("--strategy", "apps/v1/Deployment=update").strategies(DEFAULTS);
    assertThat(one.strategyFor(DEPLOYMENT)).isEqualTo("update");
    assertThat(one.strategyFor(SERVICE)).isEqualTo("update");
    assertThat(one.strategyFor(CONFIG_MAP)).isEqualTo("ssa");

    StrategySelection withDefault = parse("--strategy", "default=merge-patch").strategies(DEFAULTS);
    assertThat(withDefault.strategyFor(CONFIG_MAP)).isEqualTo("merge-patch");
    assertThat(withDefault.strategyFor(SERVICE)).as("the default's kinds stay").isEqualTo("update");
  }

  @Test
  void theConfigFileIsReadAndFlagsWinOverIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("operator.properties");
    Files.writeString(
        file,
        """
        converge.strategy.kind.apps/v1/Deployment=merge-patch
        converge.strategy.kind.v1/Service=ssa
        """);
    StrategySelection fromFile = parse("--config", file.toString()).strategies(DEFAULTS);
    assertThat(fromFile.strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
    assertThat(fromFile.strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(fromFile.defaultStrategy()).as("the file sets no default").isEqualTo("ssa");

    StrategySelection overridden =
        parse("--config", file.toString(), "--strategy", "v1/Service=update").strategies(DEFAULTS);
    assertThat(overridden.strategyFor(SERVICE)).isEqualTo("update");
    assertThat(overridden.strategyFor(DEPLOYMENT)).isEqualTo("merge-patch");
  }

  @Test
  void aMalformedStrategyOrAMissingConfigFileSaysWhat(@TempDir Path dir) {
    assertThatThrownBy(() -> parse("--strategy", "Deployment").strategies(DEFAULTS))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("kind=strategy");
    Path missing = dir.resolve("absent.properties");
    assertThatThrownBy(() -> parse("--config", missing.toString()).strategies(DEFAULTS))
        .hasMessageContaining("absent.properties");
  }

  @Test
  void leaderElectionTakesTheLeaseInTheGivenNamespace() throws Exception {
    OperatorOptions options = parse("--leader-elect", "--leader-election-namespace", "ops");
    assertThat(options.leaderElection("test-operator"))
        .hasValueSatisfying(
            election -> {
              assertThat(election.leaseNamespace()).isEqualTo("ops");
              assertThat(election.leaseName()).isEqualTo("test-operator");
            });
  }

  @Test
  void theClientConfigComesFromTheKubeconfigWithTheUserAgent(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: one
          cluster: {server: "https://one.example:6443"}
        - name: two
          cluster: {server: "https://two.example:6443"}
        users:
        - name: someone
          user: {token: abc}
        contexts:
        - name: first
          context: {cluster: one, user: someone, namespace: shop}
        - name: second
          context: {cluster: two, user: someone}
        current-context: first
        """);
    Config current =
        parse("--kubeconfig", kubeconfig.toString())
            .applyTo(new OperatorBuilder(null))
            .clientConfig;
    assertThat(current.getMasterUrl()).startsWith("https://one.example:6443");
    assertThat(current.getNamespace()).isEqualTo("shop");

    Config chosen =
        parse("--kubeconfig", kubeconfig.toString(), "--context", "second")
            .applyTo(new OperatorBuilder(null))
            .clientConfig;
    assertThat(chosen.getMasterUrl()).startsWith("https://two.example:6443");
  }

  @Test
  void theFlagsFillTheBuilderOverTheOperatorsOwnSettings() {
    OperatorBuilder plain =
        parse().applyTo(new OperatorBuilder(null).name("test-operator").strategies(DEFAULTS));
    assertThat(plain.strategySelection()).isEqualTo(DEFAULTS);
    assertThat(plain.namespaces).isEmpty();
    assertThat(plain.leaderElection).isEmpty();
    assertThat(plain.workers).isEqualTo(1);

    OperatorBuilder flagged =
        parse(
                "-n",
                "shop",
                "--strategy",
                "v1/Service=ssa",
                "--leader-elect",
                "--leader-election-namespace",
                "ops",
                "--leader-election-id",
                "replica-1",
                "--access-review-interval",
                "0",
                "--workers",
                "4",
                "--http-port",
                "0")
            .applyTo(new OperatorBuilder(null).name("test-operator").strategies(DEFAULTS));
    assertThat(flagged.name).isEqualTo("test-operator");
    assertThat(flagged.namespaces).containsExactly("shop");
    assertThat(flagged.strategySelection().strategyFor(SERVICE)).isEqualTo("ssa");
    assertThat(flagged.strategySelection().strategyFor(DEPLOYMENT)).isEqualTo("ssa");
    assertThat(flagged.leaderElection)
        .hasValueSatisfying(
            lease -> {
              assertThat(lease.leaseNamespace()).isEqualTo("ops");
              assertThat(lease.leaseName()).isEqualTo("test-operator");
              assertThat(lease.identity()).isEqualTo("replica-1");
            });
    assertThat(flagged.accessReviewInterval).isEqualTo(Duration.ZERO);
    assertThat(flagged.workers).isEqualTo(4);
    assertThat(flagged.httpPort).isZero();
  }

  @Test
  void badValuesAreRefusedNamingTheFlag() {
    assertThatThrownBy(
            () -> parse("--access-review-interval", "-1").applyTo(new OperatorBuilder(null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--access-review-interval");
    assertThatThrownBy(() -> parse("--workers", "0").applyTo(new OperatorBuilder(null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--workers");
  }

  @Test
  void eachOptionHasAnEnvironmentVariable() {
    var spec = new CommandLine(new TestCommand()).getCommandSpec();
    assertThat(OperatorOptions.environmentVariable(spec.findOption("--leader-elect")))
        .isEqualTo("CONVERGE_LEADER_ELECT");
    assertThat(OperatorOptions.environmentVariable(spec.findOption("-n")))
        .isEqualTo("CONVERGE_NAMESPACE");
  }

  @Command(name = "failing-operator")
  static final class FailingCommand implements Callable<Integer> {
    @Mixin OperatorOptions options = new OperatorOptions();

    @Override
    public Integer call() {
      throw new IllegalArgumentException("HTTP port 8081 for probes and metrics: in use");
    }
  }

  @Test
  void aConfigurationErrorIsOneLineAndExitCodeTwo() {
    StringWriter err = new StringWriter();
    FailingCommand command = new FailingCommand();
    CommandLine line = new CommandLine(command);
    line.setErr(new PrintWriter(err));
    int code = OperatorOptions.execute(line);
    assertThat(code).isEqualTo(Operator.CONFIGURATION_ERROR);
    assertThat(err.toString())
        .isEqualTo(
            "failing-operator: HTTP port 8081 for probes and metrics: in use"
                + System.lineSeparator());
  }

  /** Run in a JVM of its own, with the environment the test gives it: prints what the flags set. */
  @Command(name = "env-operator")
  static final class EnvironmentCommand implements Callable<Integer> {
    @Mixin OperatorOptions options = new OperatorOptions();

    public static void main(String[] args) {
      System.exit(OperatorOptions.execute(new EnvironmentCommand(), args));
    }

    @Override
    public Integer call() {
      OperatorBuilder builder = options.applyTo(new OperatorBuilder(null).name("env-operator"));
      System.out.println(
          "namespaces="
              + builder.namespaces
              + " workers="
              + builder.workers
              + " leaderElection="
              + builder.leaderElection.map(LeaderElection::leaseNamespace).orElse("off"));
      return 0;
    }
  }

  @Test
  void optionsComeFromTheEnvironmentAndAFlagWins() {
    var fromEnvironment =
        dev.converge.testing.ProcessLauncher.java(EnvironmentCommand.class)
            .env("CONVERGE_NAMESPACE", "shop,books")
            .env("CONVERGE_WORKERS", "4")
            .env("CONVERGE_LEADER_ELECT", "true")
            .env("CONVERGE_LEADER_ELECTION_NAMESPACE", "ops")
            .run(Duration.ofSeconds(60));
    assertThat(fromEnvironment.exitCode()).as(fromEnvironment.errors()).isZero();
    assertThat(fromEnvironment.output())
        .contains("namespaces=[books, shop] workers=4 leaderElection=ops");

    var flagWins =
        dev.converge.testing.ProcessLauncher.java(EnvironmentCommand.class)
            .env("CONVERGE_WORKERS", "4")
            .args("--workers", "8")
            .run(Duration.ofSeconds(60));
    assertThat(flagWins.output()).contains("namespaces=[] workers=8 leaderElection=off");

    var bad =
        dev.converge.testing.ProcessLauncher.java(EnvironmentCommand.class)
            .env("CONVERGE_WORKERS", "0")
            .run(Duration.ofSeconds(60));
    assertThat(bad.exitCode()).isEqualTo(Operator.CONFIGURATION_ERROR);
    assertThat(bad.output() + bad.errors())
        .contains("env-operator: --workers must be at least 1, was 0");
  }
}
