package dev.converge.example.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.example.api.AppDeployment;
import dev.converge.example.api.AppDeploymentSpec;
import dev.converge.example.api.v2.AppDeploymentV2;
import dev.converge.example.api.v2.AppDeploymentV2Spec;
import dev.converge.example.api.v2.AppDeploymentV2Spec.NamedPort;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** v1 and v2 both ways, with what v1 cannot hold kept in the annotation and nothing lost. */
class AppDeploymentConversionTest {

  private final AppDeploymentConversion conversion = new AppDeploymentConversion();

  @Test
  void v1sPortIsV2sFirstPortNamedHttpAndBackWithoutAnAnnotation() {
    AppDeployment v1 =
        AppDeployment.of("ns", "a", new AppDeploymentSpec("nginx:1.27", 2, "cfg", 8080));
    AppDeploymentV2 v2 = conversion.convert(v1);
    assertThat(v2.getSpec())
        .isEqualTo(
            new AppDeploymentV2Spec("nginx:1.27", 2, "cfg", List.of(new NamedPort("http", 8080))));

    AppDeployment back = conversion.convertBack(v2);
    assertThat(back.getSpec()).isEqualTo(new AppDeploymentSpec("nginx:1.27", 2, "cfg", 8080));
    assertThat(back.getMetadata().getAnnotations()).isNullOrEmpty();
  }

  @Test
  void namesAndFurtherPortsSurviveAStayInV1() {
    AppDeploymentV2 v2 = new AppDeploymentV2();
    v2.getMetadata().setName("a");
    v2.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of("team", "shop")));
    List<NamedPort> ports = List.of(new NamedPort("web", 80), new NamedPort("admin", 9000));
    v2.setSpec(new AppDeploymentV2Spec("nginx:1.27", 1, null, ports));

    AppDeployment v1 = conversion.convertBack(v2);
    assertThat(v1.getSpec().port()).isEqualTo(80);
    assertThat(v1.getMetadata().getAnnotations())
        .containsEntry("team", "shop")
        .containsKey(AppDeploymentConversion.PORTS);

    AppDeploymentV2 again = conversion.convert(v1);
    assertThat(again.getSpec().ports()).isEqualTo(ports);
    assertThat(again.getMetadata().getAnnotations()).containsExactly(Map.entry("team", "shop"));
  }

  @Test
  void aV1ClientsPortChangeWinsOverTheKeptFirstPort() {
    AppDeploymentV2 v2 = new AppDeploymentV2();
    v2.getMetadata().setName("a");
    v2.setSpec(
        new AppDeploymentV2Spec(
            "nginx:1.27",
            1,
            null,
            List.of(new NamedPort("web", 80), new NamedPort("admin", 9000))));
    AppDeployment v1 = conversion.convertBack(v2);
    v1.setSpec(new AppDeploymentSpec("nginx:1.27", 1, null, 8081));

    assertThat(conversion.convert(v1).getSpec().ports())
        .containsExactly(new NamedPort("web", 8081), new NamedPort("admin", 9000));
  }
}
