package dev.converge.schema;

import static dev.converge.schema.SampleSchemas.CONFIG_MAP;
import static dev.converge.schema.SampleSchemas.DEPLOYMENT;
import static dev.converge.schema.SampleSchemas.GADGET;
import static dev.converge.schema.SampleSchemas.POD;
import static dev.converge.schema.SampleSchemas.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ComparisonTest {

  @Test
  void numberLikeStringsOfAConfigMapCompareExactly() {
    assertThat(
            Comparison.firstDifference(
                CONFIG_MAP, json("{'data':{'v':'1.1'}}"), json("{'data':{'v':'1.10'}}")))
        .contains(".data.v");
    assertThat(
            Comparison.firstDifference(
                CONFIG_MAP, json("{'data':{'v':'010'}}"), json("{'data':{'v':'10'}}")))
        .contains(".data.v");
    assertThat(
            Comparison.holds(
                CONFIG_MAP, json("{'data':{'v':'1.10'}}"), json("{'data':{'v':'1.10'}}")))
        .isTrue();
  }

  @Test
  void quantitiesCompareByAmountWhereTheSchemaSaysQuantity() {
    String live =
        "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1','memory':'1Gi'}}}]}}";
    String same =
        "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1000m','memory':'1073741824'}}}]}}";
    String other = "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1100m'}}}]}}";
    assertThat(Comparison.holds(POD, json(live), json(same))).isTrue();
    assertThat(Comparison.firstDifference(POD, json(live), json(other)))
        .contains(".spec.containers[{name=a}].resources.limits.cpu");
  }

  @Test
  void anEmptyMapEntryIsAValue() {
    assertThat(
            Comparison.firstDifference(
                CONFIG_MAP,
                json("{'metadata':{'labels':{'a':'x'}}}"),
                json("{'metadata':{'labels':{'a':'x','b':''}}}")))
        .contains(".metadata.labels.b");
    assertThat(
            Comparison.firstDifference(CONFIG_MAP, json("{'data':{}}"), json("{'data':{'k':''}}")))
        .contains(".data.k");
  }

  @Test
  void zeroValuesOfBuiltInStructsMayBeAbsentButNotOfCustomResources() {
    assertThat(
            Comparison.holds(
                DEPLOYMENT, json("{'spec':{'replicas':1}}"), json("{'spec':{'paused':false}}")))
        .isTrue();
    assertThat(
            Comparison.firstDifference(
                GADGET, json("{'spec':{'size':1}}"), json("{'spec':{'enabled':false}}")))
        .contains(".spec.enabled");
  }

  @Test
  void setsAllowOtherWritersElementsInAnyOrder() {
    assertThat(
            Comparison.holds(
                CONFIG_MAP,
                json("{'metadata':{'finalizers':['other/x','mine/y']}}"),
                json("{'metadata':{'finalizers':['mine/y']}}")))
        .isTrue();
    assertThat(
            Comparison.holds(
                CONFIG_MAP,
                json("{'metadata':{'finalizers':['mine/y']}}"),
                json("{'metadata':{'finalizers':['mine/y','mine/z']}}")))
        .isFalse();
  }

  @Test
  void atomicMapsAreComparedWhole() {
    assertThat(
            Comparison.firstDifference(
                POD,
                json("{'spec':{'nodeSelector':{'app':'web','version':'v1'}}}"),
                json("{'spec':{'nodeSelector':{'app':'web'}}}")))
        .contains(".spec.nodeSelector.version");
  }

  @Test
  void mapListsMatchByKeyAndIgnoreServerDefaults() {
    String live =
        "{'spec':{'containers':[{'name':'a','image':'x','terminationMessagePath':'/dev/t'},"
            + "{'name':'b','image':'y','ports':[{'containerPort':80,'protocol':'TCP'}]}]}}";
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y','ports':[{'containerPort':80}]}]}}")))
        .isTrue();
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'b','ports':[{'containerPort':80,'protocol':'UDP'}]}]}}")))
        .isFalse();
  }

  @Test
  void desiredsOwnElementsMustStandInDesiredsOrder() {
    String live = "{'spec':{'containers':[{'name':'x'},{'name':'a'},{'name':'b'}]}}";
    assertThat(
            Comparison.holds(
                POD, json(live), json("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}")))
        .isTrue();
    assertThat(
            Comparison.firstDifference(
                POD, json(live), json("{'spec':{'containers':[{'name':'b'},{'name':'a'}]}}")))
        .contains(".spec.containers (order)");
  }

  @Test
  void atomicListsCompareByPosition() {
    String live =
        "{'spec':{'tolerations':[{'key':'k','operator':'Exists'},{'key':'k','value':'v'}]}}";
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'tolerations':[{'key':'k','value':'v'},{'key':'k','operator':'Exists'}]}}")))
        .isFalse();
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'tolerations':[{'key':'k','operator':'Exists'},{'key':'k','value':'v'}]}}")))
        .isTrue();
  }

  @Test
  void anEmptyStructIsAValueAndAnEmptyStringMapIsNot() {
    assertThat(
            Comparison.holds(
                POD,
                json("{'spec':{'volumes':[{'name':'v','configMap':{'name':'c'}}]}}"),
                json("{'spec':{'volumes':[{'name':'v','emptyDir':{}}]}}")))
        .isFalse();
    assertThat(Comparison.holds(POD, json("{'spec':{}}"), json("{'spec':{'nodeSelector':{}}}")))
        .isTrue();
  }

  @Test
  void intOrStringKeepsItsType() {
    String live =
        "{'spec':{'containers':[{'name':'a','livenessProbe':{'httpGet':{'port':8080}}}]}}";
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'a','livenessProbe':{'httpGet':{'port':'8080'}}}]}}")))
        .isFalse();
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'a','livenessProbe':{'httpGet':{'port':8080.0}}}]}}")))
        .isTrue();
  }

  @Test
  void insideAnAtomicValueWhatLiveHoldsBeyondDesiredIsADifference() {
    String live =
        "{'spec':{'tolerations':[{'key':'k','operator':'Equal','value':'v','effect':'NoSchedule'}]}}";
    assertThat(
            Comparison.firstDifference(
                POD,
                json(live),
                json(
                    "{'spec':{'tolerations':[{'key':'k','operator':'Equal','effect':'NoSchedule'}]}}")))
        .contains(".spec.tolerations[0].value");
    assertThat(Comparison.holds(POD, json(live), json(live))).isTrue();
  }

  @Test
  void insideAnAtomicValueFieldsTheServerFillsInAreNoDifference() {
    String live =
        "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':{'configMapKeyRef':"
            + "{'name':'c','key':'k','optional':false}}}]}]}}";
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'a','env':[{'name':'E',"
                        + "'valueFrom':{'configMapKeyRef':{'name':'c','key':'k'}}}]}]}}")))
        .isTrue();
  }

  @Test
  void insideAnAtomicValueAnEmptyStructIsAValue() {
    String live =
        "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':{'configMapKeyRef':{}}}]}]}}";
    assertThat(
            Comparison.holds(
                POD,
                json(live),
                json(
                    "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':{'configMapKeyRef':{}}}]}]}}")))
        .isTrue();
    String atomicList =
        "{'spec':{'tolerations':[{'key':'k'}],'volumes':[{'name':'v','emptyDir':{}}]}}";
    assertThat(
            Comparison.holds(POD, json(atomicList), json("{'spec':{'tolerations':[{'key':'k'}]}}")))
        .isTrue();
  }
}
