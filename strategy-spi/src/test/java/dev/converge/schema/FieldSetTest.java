package dev.converge.schema;

import static dev.converge.schema.SampleSchemas.CONFIG_MAP;
import static dev.converge.schema.SampleSchemas.POD;
import static dev.converge.schema.SampleSchemas.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldSetTest {

  @Test
  void pathsOfADesiredObjectInTheServersForm() {
    FieldSet set =
        FieldSet.of(
            POD,
            json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'n',"
                    + "'labels':{'app':'web'},'finalizers':['a/b']},'spec':{'containers':[{'name':'c','ports':[{'containerPort':80}]}],"
                    + "'tolerations':[{'key':'k'}]}}"));
    assertThat(set.leaves())
        .containsExactlyInAnyOrder(
            List.of("f:metadata", "f:labels", "f:app"),
            List.of("f:metadata", "f:finalizers", "v:\"a/b\""),
            List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:name"),
            List.of(
                "f:spec",
                "f:containers",
                "k:{\"name\":\"c\"}",
                "f:ports",
                "k:{\"containerPort\":80,\"protocol\":\"TCP\"}",
                "f:containerPort"),
            List.of("f:spec", "f:tolerations"));
  }

  @Test
  void emptyListsAreFoundByTheirPathsAndNothingElseIs() {
    Map<String, Object> desired =
        json(
            "{'metadata':{'name':'p','finalizers':[]},'spec':{'imagePullSecrets':[],"
                + "'containers':[{'name':'c','args':[],'ports':[{'containerPort':80}]}],"
                + "'tolerations':[{'key':'k'}]}}");
    assertThat(FieldSet.emptyLists(POD, desired).leaves())
        .containsExactlyInAnyOrder(
            List.of("f:spec", "f:imagePullSecrets"),
            List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:args"));
    assertThat(FieldSet.emptyLists(POD, json("{'spec':{'containers':[{'name':'c'}]}}")).isEmpty())
        .isTrue();
  }

  @Test
  void theServersKeyOrderReadsAsTheSamePath() {
    FieldSet fromServer =
        FieldSet.fromFieldsV1(
            new KubernetesSerialization()
                .unmarshal(
                    "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{},\"f:name\":{},\"f:ports\":"
                        + "{\"k:{\\\"protocol\\\":\\\"TCP\\\",\\\"containerPort\\\":80}\":{\".\":{},\"f:containerPort\":{}}}}}}}",
                    Map.class));
    FieldSet ours =
        FieldSet.of(
            POD, json("{'spec':{'containers':[{'name':'c','ports':[{'containerPort':80}]}]}}"));
    assertThat(fromServer.leaves()).isEqualTo(ours.leaves());
  }

  @Test
  void aCoarsenedSetOwnsTheWidestMapWhole() {
    StringBuilder data = new StringBuilder("{'data':{");
    for (int i = 0; i < 100; i++) {
      data.append(i == 0 ? "" : ",").append("'k").append(i).append("':'v'");
    }
    FieldSet set = FieldSet.of(CONFIG_MAP, json(data + "},'metadata':{'labels':{'a':'b'}}}"));
    FieldSet coarse = set.coarsened(10);
    assertThat(coarse.size()).isLessThanOrEqualTo(10);
    assertThat(coarse.child("f:data").orElseThrow().ownsAllChildren()).isTrue();
    assertThat(
            coarse
                .child("f:metadata")
                .flatMap(m -> m.child("f:labels"))
                .flatMap(l -> l.child("f:a")))
        .isPresent();
  }

  @Test
  void equalSetsInternToOneObjectAndShareEqualSubtrees() {
    String containers =
        "'f:spec':{'f:template':{'f:spec':{'f:containers':{'.':{},'f:image':{},'f:name':{}}}}}";
    FieldSet first =
        FieldSet.fromFieldsV1(json("{" + containers + ",'f:metadata':{'f:labels':{'f:a':{}}}}"));
    FieldSet second =
        FieldSet.fromFieldsV1(json("{" + containers + ",'f:metadata':{'f:labels':{'f:a':{}}}}"));
    FieldSet other =
        FieldSet.fromFieldsV1(json("{" + containers + ",'f:metadata':{'f:labels':{'f:b':{}}}}"));
    assertThat(second).isNotSameAs(first).isEqualTo(first);

    FieldSet a = first.interned();
    FieldSet b = second.interned();
    FieldSet c = other.interned();

    assertThat(a).isEqualTo(first).isSameAs(b);
    assertThat(a.leaves()).isEqualTo(first.leaves());
    assertThat(c).isEqualTo(other).isNotEqualTo(a);
    // the spec subtree both sets hold is one object
    assertThat(c.child("f:spec").orElseThrow()).isSameAs(a.child("f:spec").orElseThrow());
    assertThat(a.interned()).isSameAs(a);
  }
}
