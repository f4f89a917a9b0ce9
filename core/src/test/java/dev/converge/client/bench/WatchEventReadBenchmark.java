package dev.converge.client.bench;

import com.sun.management.ThreadMXBean;
import dev.converge.client.Clients;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.management.ManagementFactory;

/**
 * What reading one watch event costs the informer's thread: the CPU time per event of a
 * Deployment's MODIFIED event of 3.7 KB (managedFields and status as the API server sends them),
 * read by fabric8's own serialization and by Converge's ({@link Clients#serialization()}), beside
 * reading the object alone as a Deployment and as a map. Prints figures; asserts nothing but the
 * class read. Run it as the example runs (the client compiler alone):
 *
 * <pre>
 * mvn -q -pl core -am install -DskipTests
 * mvn -q -pl core dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
 * java -XX:TieredStopAtLevel=1 -cp core/target/test-classes:core/target/classes:$(cat core/target/bench.cp) \
 *   dev.converge.client.bench.WatchEventReadBenchmark [events]
 * </pre>
 */
public final class WatchEventReadBenchmark {

  private static final String DEPLOYMENT =
"""
{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"app-0042","namespace":"bench-3","uid":"6f1c9a52-2b7e-4c1a-9d0e-5a8f3c2b1e77","resourceVersion":"123456","generation":1,"creationTimestamp":"2026-12-05T07:00:00Z","labels":{"app.kubernetes.io/name":"app-0042","app.kubernetes.io/managed-by":"converge"},"annotations":{"deployment.kubernetes.io/revision":"1","converge.dev/applied-fields":"eyJmOm1ldGFkYXRhIjp7ImY6bGFiZWxzIjp7fX0sImY6c3BlYyI6eyJmOnJlcGxpY2FzIjp7fSwiZjp0ZW1wbGF0ZSI6e319fQ=="},"ownerReferences":[{"apiVersion":"sample.converge.dev/v1","kind":"AppDeployment","name":"app-0042","uid":"1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9","controller":true,"blockOwnerDeletion":true}],"managedFields":[{"manager":"app-operator","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-05T07:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:converge.dev/applied-fields":{}},"f:labels":{"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:annotations":{"f:converge.dev/config-hash":{}},"f:labels":{"f:app.kubernetes.io/name":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{"k:{\\"name\\":\\"MODE\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{}}},"f:resources":{"f:limits":{"f:cpu":{},"f:memory":{}},"f:requests":{"f:cpu":{},"f:memory":{}}}}}}}}}},{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2026-12-05T07:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:deployment.kubernetes.io/revision":{}}},"f:status":{"f:availableReplicas":{},"f:conditions":{".":{},"k:{\\"type\\":\\"Available\\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}},"k:{\\"type\\":\\"Progressing\\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{},"f:readyReplicas":{},"f:replicas":{},"f:updatedReplicas":{}}},"subresource":"status"}]},"spec":{"replicas":1,"selector":{"matchLabels":{"app.kubernetes.io/name":"app-0042"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app.kubernetes.io/name":"app-0042"},"annotations":{"converge.dev/config-hash":"3f2a9c"}},"spec":{"containers":[{"name":"app","image":"registry.example/app:1.4.2","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"MODE","value":"bench"}],"resources":{"limits":{"cpu":"200m","memory":"128Mi"},"requests":{"cpu":"50m","memory":"64Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600},"status":{"observedGeneration":1,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,"conditions":[{"type":"Available","status":"True","lastUpdateTime":"2026-12-05T07:00:02Z","lastTransitionTime":"2026-12-05T07:00:02Z","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."},{"type":"Progressing","status":"True","lastUpdateTime":"2026-12-05T07:00:02Z","lastTransitionTime":"2026-12-05T07:00:00Z","reason":"NewReplicaSetAvailable","message":"ReplicaSet \\"app-0042-5d8f7c\\" has successfully progressed."}]}}
"""
          .strip();

  private WatchEventReadBenchmark() {}

  public static void main(String[] args) {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    String event = "{\"type\":\"MODIFIED\",\"object\":" + DEPLOYMENT + "}";
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    KubernetesSerialization fabric8 = new KubernetesSerialization();
    KubernetesSerialization converge = Clients.serialization();
    System.out.printf(
        "one watch event of a Deployment (%d bytes), %d events per figure, one thread%n",
        DEPLOYMENT.length(), events);
    System.out.printf(
        "%-6s %12s %14s %14s %12s%n",
        "round", "fabric8 (us)", "Converge (us)", "object (us)", "map (us)");
    for (int round = 1; round <= 3; round++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < events; i++) {
        check(fabric8.unmarshal(event, WatchEvent.class));
      }
      long afterFabric8 = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < events; i++) {
        check(converge.unmarshal(event, WatchEvent.class));
      }
      long afterConverge = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < events; i++) {
        converge.unmarshal(DEPLOYMENT, Deployment.class);
      }
      long afterTyped = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < events; i++) {
        converge.unmarshal(DEPLOYMENT, java.util.Map.class);
      }
      long afterMap = threads.getCurrentThreadCpuTime();
      System.out.printf(
          "%-6d %12.1f %14.1f %14.1f %12.1f%n",
          round,
          (afterFabric8 - start) / 1e3 / events,
          (afterConverge - afterFabric8) / 1e3 / events,
          (afterTyped - afterConverge) / 1e3 / events,
          (afterMap - afterTyped) / 1e3 / events);
    }
  }

  private static void check(WatchEvent event) {
    if (!(event.getObject() instanceof Deployment)) {
      throw new IllegalStateException("read as " + event.getObject().getClass());
    }
  }
}
