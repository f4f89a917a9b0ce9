package dev.converge.schema;

import static dev.converge.schema.SampleSchemas.CONFIG_MAP;
import static dev.converge.schema.SampleSchemas.DEPLOYMENT;
import static dev.converge.schema.SampleSchemas.POD;
import static dev.converge.schema.SampleSchemas.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MergePatchTest {

  @Test
  void whatTheServerWouldStoreTheSameIsNoPatch() {
    Map<String, Object> live =
        json("{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1'}}}]}}");
    Map<String, Object> target =
        json(
            "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1000m'}}}],"
                + "'hostNetwork':false}}");
    assertThat(MergePatch.between(POD, live, target)).isEmpty();
  }

  @Test
  void aChangedListIsSentWholeAndARemovedKeyAsNull() {
    Map<String, Object> live = json("{'data':{'a':'1','b':'2'},'metadata':{'finalizers':['x']}}");
    Map<String, Object> target = json("{'data':{'a':'1'},'metadata':{'finalizers':['x','y']}}");
    assertThat(MergePatch.between(CONFIG_MAP, live, target))
        .isEqualTo(json("{'data':{'b':null},'metadata':{'finalizers':['x','y']}}"));
  }

  @Test
  void aNumberLikeStringChangeIsAChange() {
    assertThat(
            MergePatch.between(
                CONFIG_MAP, json("{'data':{'v':'1.1'}}"), json("{'data':{'v':'1.10'}}")))
        .isEqualTo(json("{'data':{'v':'1.10'}}"));
  }

  @Test
  void aReorderedMapListIsAChange() {
    Map<String, Object> live = json("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}");
    Map<String, Object> target = json("{'spec':{'containers':[{'name':'b'},{'name':'a'}]}}");
    assertThat(MergePatch.between(POD, live, target)).isEqualTo(target);
  }

  @Test
  void statusIsNeverPatched() {
    Map<String, Object> target = new HashMap<>(json("{'spec':{'replicas':2}}"));
    target.put("status", Map.of("replicas", 2));
    assertThat(
            MergePatch.between(
                DEPLOYMENT, json("{'spec':{'replicas':1},'status':{'replicas':1}}"), target))
        .isEqualTo(json("{'spec':{'replicas':2}}"));
  }

  @Test
  void anEmptyStructLiveHoldsInAListIsSentAwayButAnEmptyOneDesiredAddsIsNot() {
    Map<String, Object> live =
        json(
            "{'spec':{'tolerations':[{'key':'k'}],'containers':[{'name':'a','env':[{'name':'E',"
                + "'valueFrom':{'configMapKeyRef':{}}}]}]}}");
    Map<String, Object> target =
        json(
            "{'spec':{'tolerations':[{'key':'k'}],'containers':[{'name':'a','env':[{'name':'E',"
                + "'valueFrom':{}}]}]}}");
    assertThat(MergePatch.between(POD, live, target))
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'a','env':[{'name':'E'," + "'valueFrom':{}}]}]}}"));
    assertThat(
            MergePatch.between(
                POD,
                json("{'spec':{'containers':[{'name':'a'}]}}"),
                json("{'spec':{'containers':[{'name':'a','securityContext':{}}]}}")))
        .isEmpty();
  }
}
