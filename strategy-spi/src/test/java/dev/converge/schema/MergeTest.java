package dev.converge.schema;

import static dev.converge.schema.SampleSchemas.CONFIG_MAP;
import static dev.converge.schema.SampleSchemas.DEPLOYMENT;
import static dev.converge.schema.SampleSchemas.POD;
import static dev.converge.schema.SampleSchemas.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MergeTest {

  private static FieldSet owned(SchemaNode schema, String desiredBefore) {
    return FieldSet.of(schema, json(desiredBefore));
  }

  @Test
  void aDroppedLabelGoesAndAForeignLabelStays() {
    Map<String, Object> live =
        json("{'metadata':{'name':'c','labels':{'mine':'1','dropped':'2','theirs':'3'}}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{'metadata':{'name':'c','labels':{'mine':'1'}}}"),
            owned(CONFIG_MAP, "{'metadata':{'labels':{'mine':'1','dropped':'2'}}}"),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(json("{'metadata':{'name':'c','labels':{'mine':'1','theirs':'3'}}}"));
    assertThat(result.removed()).containsExactly(".metadata.labels.dropped");
  }

  @Test
  void aDroppedValueAnotherWriterOwnsTooStays() {
    // Another writer changed the value since (or applied it too): its entry owns the key itself,
    // and the server's own apply keeps a field another manager still owns.
    Map<String, Object> live = json("{'data':{'a':'1','shared':'changed'}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{'data':{'a':'1'}}"),
            owned(CONFIG_MAP, "{'data':{'a':'1','shared':'2'}}"),
            FieldSet.fromFieldsV1(json("{'f:data':{'f:shared':{}}}")));
    assertThat(result.object()).isEqualTo(json("{'data':{'a':'1','shared':'changed'}}"));
    assertThat(result.removed()).isEmpty();
  }

  @Test
  void aValueOnlyThisWritersOtherEntriesHoldGoesAsContested() {
    // A server-side applier's own JSON patches are recorded as its Update entry: that keeps
    // nothing, but an apply alone would not remove the value, so the removal is contested.
    Map<String, Object> live = json("{'data':{'a':'1','patched':'2'}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{'data':{'a':'1'}}"),
            owned(CONFIG_MAP, "{'data':{'a':'1','patched':'2'}}"),
            FieldSet.empty(),
            FieldSet.fromFieldsV1(json("{'f:data':{'f:patched':{}}}")));
    assertThat(result.object()).isEqualTo(json("{'data':{'a':'1'}}"));
    assertThat(result.contested()).containsExactly(".data.patched");
  }

  @Test
  void aListElementAnotherWriterOwnsTooStaysWithoutThisWritersFieldsInIt() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','image':'x'},"
                + "{'name':'shared','image':'y','args':['--mine']}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a','image':'x'}]}}"),
            owned(
                POD,
                "{'spec':{'containers':[{'name':'a','image':'x'},"
                    + "{'name':'shared','image':'y','args':['--mine']}]}}"),
            FieldSet.fromFieldsV1(
                json(
                    "{'f:spec':{'f:containers':{'k:{\\'name\\':\\'shared\\'}':"
                        + "{'.':{},'f:name':{},'f:image':{}}}}}")));
    assertThat(result.object())
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'a','image':'x'},{'name':'shared','image':'y'}]}}"));
  }

  @Test
  void aMapAnotherWriterAddedToKeepsTheirKeysWhenDesiredDropsIt() {
    Map<String, Object> live = json("{'data':{'a':'1','theirs':'2'}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{}"),
            owned(CONFIG_MAP, "{'data':{'a':'1'}}"),
            owned(CONFIG_MAP, "{'data':{'theirs':'2'}}"));
    assertThat(result.object()).isEqualTo(json("{'data':{'theirs':'2'}}"));
  }

  @Test
  void aMapOwnedWholeLosesEveryKeyDesiredDropped() {
    FieldSet whole = FieldSet.fromFieldsV1(json("{'f:data':{'*':{}}}"));
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            json("{'data':{'a':'1','b':'2','c':'3'}}"),
            json("{'data':{'a':'1'}}"),
            whole,
            FieldSet.empty());
    assertThat(result.object()).isEqualTo(json("{'data':{'a':'1'}}"));
  }

  @Test
  void aDroppedProbeGoesWithTheValuesTheServerDefaultedInsideIt() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','image':'x','livenessProbe':"
                + "{'httpGet':{'path':'/','port':80,'scheme':'HTTP'},'periodSeconds':10,'timeoutSeconds':1},"
                + "'terminationMessagePath':'/dev/t'}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a','image':'x'}]}}"),
            owned(
                POD,
                "{'spec':{'containers':[{'name':'a','image':'x','livenessProbe':{'httpGet':{'path':'/','port':80}}}]}}"),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'a','image':'x','terminationMessagePath':'/dev/t'}]}}"));
  }

  @Test
  void droppedResourceLimitsGo() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1'},'requests':{'cpu':'500m'}}}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a','resources':{'requests':{'cpu':'500m'}}}]}}"),
            owned(
                POD,
                "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1'},'requests':{'cpu':'500m'}}}]}}"),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(
            json("{'spec':{'containers':[{'name':'a','resources':{'requests':{'cpu':'500m'}}}]}}"));
  }

  @Test
  void switchingTheStrategyTypeClearsTheDefaultedRollingUpdate() {
    Map<String, Object> live =
        json(
            "{'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}}}}");
    Merge.Result result =
        Merge.apply(
            DEPLOYMENT,
            live,
            json("{'spec':{'strategy':{'type':'Recreate'}}}"),
            FieldSet.empty(),
            FieldSet.empty());
    assertThat(result.object()).isEqualTo(json("{'spec':{'strategy':{'type':'Recreate'}}}"));
    Merge.Result keep =
        Merge.apply(
            DEPLOYMENT,
            live,
            json("{'spec':{'strategy':{'type':'RollingUpdate'}}}"),
            FieldSet.empty(),
            FieldSet.empty());
    assertThat(keep.object()).isEqualTo(live);
  }

  @Test
  void envValueBecomesValueFromAndAVolumeChangesItsSource() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','env':[{'name':'E','value':'1'}]}],"
                + "'volumes':[{'name':'v','configMap':{'name':'c','defaultMode':420}}]}}");
    Map<String, Object> desired =
        json(
            "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':"
                + "{'secretKeyRef':{'name':'s','key':'k'}}}]}],'volumes':[{'name':'v','secret':{'secretName':'s'}}]}}");
    Merge.Result result = Merge.apply(POD, live, desired, FieldSet.empty(), FieldSet.empty());
    assertThat(result.object()).isEqualTo(desired);
  }

  @Test
  void finalizersMergeAsASet() {
    Map<String, Object> live = json("{'metadata':{'finalizers':['theirs/a','mine/b','mine/old']}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{'metadata':{'finalizers':['mine/b','mine/c']}}"),
            owned(CONFIG_MAP, "{'metadata':{'finalizers':['mine/b','mine/old']}}"),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(json("{'metadata':{'finalizers':['theirs/a','mine/b','mine/c']}}"));
  }

  @Test
  void mapListsKeepForeignElementsAndTheirServerDefaults() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'sidecar','image':'s'},"
                + "{'name':'a','image':'old','terminationMessagePath':'/dev/t'}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a','image':'new'}]}}"),
            owned(POD, "{'spec':{'containers':[{'name':'a','image':'old'}]}}"),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'sidecar','image':'s'},"
                    + "{'name':'a','image':'new','terminationMessagePath':'/dev/t'}]}}"));
  }

  @Test
  void aReorderedListPutsDesiredsElementsFirstInItsOrder() {
    Map<String, Object> live =
        json("{'spec':{'containers':[{'name':'x'},{'name':'a'},{'name':'b'}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'b'},{'name':'new'},{'name':'a'}]}}"),
            FieldSet.empty(),
            FieldSet.empty());
    assertThat(result.object())
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'b'},{'name':'new'},{'name':'a'},{'name':'x'}]}}"));
    Merge.Result kept =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a'},{'name':'new'},{'name':'b'}]}}"),
            FieldSet.empty(),
            FieldSet.empty());
    assertThat(kept.object())
        .isEqualTo(
            json(
                "{'spec':{'containers':[{'name':'x'},{'name':'a'},{'name':'new'},{'name':'b'}]}}"));
  }

  @Test
  void atomicListsAndMapsAreReplaced() {
    Map<String, Object> live =
        json(
            "{'spec':{'tolerations':[{'key':'k','operator':'Exists'},{'key':'k','value':'v'}],"
                + "'nodeSelector':{'a':'1','b':'2'}}}");
    Map<String, Object> desired =
        json(
            "{'spec':{'tolerations':[{'key':'k','value':'v'},{'key':'k','operator':'Exists'}],"
                + "'nodeSelector':{'a':'1'}}}");
    assertThat(Merge.apply(POD, live, desired, FieldSet.empty(), FieldSet.empty()).object())
        .isEqualTo(desired);
  }

  @Test
  void anAtomicValueLiveAlreadyHoldsKeepsWhatTheServerFilledIn() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':"
                + "{'configMapKeyRef':{'name':'c','key':'k','optional':false}}}]}]}}");
    Map<String, Object> desired =
        json(
            "{'spec':{'containers':[{'name':'a','env':[{'name':'E','valueFrom':"
                + "{'configMapKeyRef':{'name':'c','key':'k'}}}]}]}}");
    assertThat(Merge.apply(POD, live, desired, FieldSet.empty(), FieldSet.empty()).object())
        .isEqualTo(live);
    assertThat(
            MergePatch.between(
                POD,
                live,
                Merge.apply(POD, live, desired, FieldSet.empty(), FieldSet.empty()).object()))
        .isEmpty();
  }

  @Test
  void aMapDroppedWholeLosesOnlyThisWritersKeysWhenAnotherWriterAddedSome() {
    Map<String, Object> live = json("{'metadata':{'name':'c','labels':{'app':'a','team':'blue'}}}");
    Merge.Result result =
        Merge.apply(
            CONFIG_MAP,
            live,
            json("{'metadata':{'name':'c'}}"),
            owned(CONFIG_MAP, "{'metadata':{'labels':{'app':'a'}}}"),
            owned(CONFIG_MAP, "{'metadata':{'labels':{'team':'blue'}}}"));
    assertThat(result.object())
        .isEqualTo(json("{'metadata':{'name':'c','labels':{'team':'blue'}}}"));
  }

  @Test
  void aDroppedListElementGoesEvenWhenAnotherWriterChangedAFieldInIt() {
    Map<String, Object> live =
        json("{'spec':{'containers':[{'name':'a','image':'x'},{'name':'old','image':'drifted'}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a','image':'x'}]}}"),
            owned(
                POD,
                "{'spec':{'containers':[{'name':'a','image':'x'},{'name':'old','image':'y'}]}}"),
            FieldSet.fromFieldsV1(
                json("{'f:spec':{'f:containers':{'k:{\\'name\\':\\'old\\'}':{'f:image':{}}}}}")));
    assertThat(result.object())
        .isEqualTo(json("{'spec':{'containers':[{'name':'a','image':'x'}]}}"));
  }

  @Test
  void aDroppedProbeGoesWholeEvenWhenAnotherWriterChangedOneOfItsFields() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'a','livenessProbe':"
                + "{'httpGet':{'path':'/','port':80},'initialDelaySeconds':13,'periodSeconds':10}}]}}");
    Merge.Result result =
        Merge.apply(
            POD,
            live,
            json("{'spec':{'containers':[{'name':'a'}]}}"),
            owned(
                POD,
                "{'spec':{'containers':[{'name':'a','livenessProbe':{'httpGet':{'path':'/','port':80},"
                    + "'initialDelaySeconds':5}}]}}"),
            // as the server records another writer's change of one value: that leaf only
            FieldSet.fromFieldsV1(
                json(
                    "{'f:spec':{'f:containers':{'k:{\\'name\\':\\'a\\'}':"
                        + "{'f:livenessProbe':{'f:initialDelaySeconds':{}}}}}}")));
    assertThat(result.object()).isEqualTo(json("{'spec':{'containers':[{'name':'a'}]}}"));
    assertThat(result.contested()).containsExactly(".spec.containers[{name=a}].livenessProbe");
  }

  @Test
  void pointersNameLiveElementsAndReachTheirDesiredCounterparts() {
    Map<String, Object> live =
        json(
            "{'spec':{'containers':[{'name':'side','image':'s'},"
                + "{'name':'web','image':'w','livenessProbe':{'httpGet':{'path':'/h','port':80},'periodSeconds':10}}]}}");
    Map<String, Object> desired =
        json(
            "{'spec':{'containers':[{'name':'web','image':'w',"
                + "'livenessProbe':{'exec':{'command':['true']}}}]}}");
    FieldSet before =
        owned(
            POD,
            "{'spec':{'containers':[{'name':'web','image':'w',"
                + "'livenessProbe':{'httpGet':{'path':'/h','port':80},'periodSeconds':10}}]}}");
    Merge.Result result = Merge.apply(POD, live, desired, before, FieldSet.empty());
    assertThat(result.removed())
        .containsExactly(
            ".spec.containers[{name=web}].livenessProbe.httpGet",
            ".spec.containers[{name=web}].livenessProbe.periodSeconds");
    assertThat(result.pointer(result.removed().get(0)))
        .isEqualTo("/spec/containers/1/livenessProbe/httpGet");
    assertThat(Merge.desiredAt(POD, live, desired, "/spec/containers/1/livenessProbe"))
        .isEqualTo(json("{'exec':{'command':['true']}}"));
    assertThat(Merge.desiredAt(POD, live, desired, "/spec/containers/0")).isNull();
    assertThat(Merge.positionTests(POD, live, "/spec/containers/1/livenessProbe/httpGet"))
        .isEqualTo(Map.of("/spec/containers/1/name", "web"));
  }
}
