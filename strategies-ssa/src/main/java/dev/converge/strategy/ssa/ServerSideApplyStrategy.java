package dev.converge.strategy.ssa;

import dev.converge.schema.ApiKind;
import dev.converge.schema.Comparison;
import dev.converge.schema.FieldSet;
import dev.converge.schema.Merge;
import dev.converge.schema.ResourceTree;
import dev.converge.schema.SchemaNode;
import dev.converge.strategy.ApplyOutcome;
import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.ResourceWriteException;
import dev.converge.strategy.StrategyContext;
import dev.converge.strategy.tree.AppliedFieldsRecord;
import dev.converge.strategy.tree.DesiredState;
import dev.converge.strategy.tree.ManagedFields;
import dev.converge.strategy.tree.ServerDefaults;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.lang.reflect.Constructor;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Server-side apply as the controller's field manager. Before sending, it reads the manager's
 * {@code Apply} entry in {@code managedFields}: when live holds every desired value, the manager
 * owns every desired field and owns nothing desired has dropped, the request is skipped.
 *
 * <p>Taking over: an object last written by the {@code update} or {@code merge-patch} strategy has
 * its fields recorded under {@code Update} entries, which an apply does not release — later
 * removals would silently not happen. When such entries exist for this controller, the strategy
 * first moves their fields into its own {@code Apply} entry (one JSON patch of {@code
 * metadata.managedFields}, guarded by the resourceVersion), then applies. "This controller" is its
 * field manager and the manager name the API server gives its client's PUTs and POSTs, which
 * fabric8 cannot label with a field manager: the first word of the client's user agent. Give the
 * operator's client a user agent of its own ({@code Config#setUserAgent("my-operator/1.0")}); with
 * fabric8's default user agent, every fabric8-based tool writes as {@value
 * #FABRIC8_DEFAULT_MANAGER}, and fields such a tool set would be taken over too.
 */
public final class ServerSideApplyStrategy implements ResourceStrategy {

  /** The configuration name. */
  public static final String NAME = "ssa";

  /**
   * The manager name the API server records for fabric8 writes that cannot carry a field manager
   * (PUT and POST); the update strategy and merge-patch creations appear under it.
   */
  public static final String FABRIC8_DEFAULT_MANAGER = "fabric8-kubernetes-client";

  private static final Logger log = LoggerFactory.getLogger(ServerSideApplyStrategy.class);

  /** The path of the applied-fields record, which every apply sets. */
  private static final FieldSet RECORD_FIELD =
      FieldSet.fromFieldsV1(
          Map.of(
              "f:metadata",
              Map.of("f:annotations", Map.of("f:" + AppliedFieldsRecord.ANNOTATION, Map.of()))));

  /**
   * This manager's field set by object, resourceVersion and manager: a steady state reads it once.
   * Interned: objects written from one builder own equal sets, kept once however many there are.
   */
  private final Map<String, FieldSet> ownedFields = recentlyUsed();

  private FieldSet ownedFields(HasMetadata live, Map<String, Object> entry) {
    String key =
        live.getMetadata().getUid()
            + "/"
            + live.getMetadata().getResourceVersion()
            + "/"
            + entry.get("manager");
    // Not computeIfAbsent: a synchronized map holds its lock while the function runs, and every
    // worker would wait for one another's parse (seen as 0.2 s waits when 10,000 objects were
    // reconciled after a restart). Two workers may parse the same entry; both get equal sets.
    FieldSet known = ownedFields.get(key);
    if (known != null) {
      return known;
    }
    FieldSet parsed = ManagedFields.fieldsOf(entry).interned();
    ownedFields.put(key, parsed);
    return parsed;
  }

  private boolean sameRecord(String uid, String text, FieldSet fields) {
    try {
      return decodedRecord(uid, text).equals(fields);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The applied-fields record each object held when last read, decoded, by uid. {@link
   * AppliedFieldsRecord#decode} keeps a bounded number of records by text, fewer than the objects
   * of a large operator (each record names its owner's uid, so no two are alike), and a steady
   * state that cycles through more objects than that decoded every record again on each apply.
   */
  private final Map<String, DecodedRecord> records = recentlyUsed();

  private record DecodedRecord(String text, FieldSet fields) {}

  /**
   * The field set of the record {@code text} on the object {@code uid}.
   *
   * @throws IllegalArgumentException when the text is not a record
   */
  private FieldSet decodedRecord(Object uid, String text) {
    if (uid == null || text == null) {
      return AppliedFieldsRecord.decode(text);
    }
    String key = uid.toString();
    DecodedRecord known = records.get(key);
    if (known != null && known.text.equals(text)) {
      return known.fields;
    }
    FieldSet decoded = AppliedFieldsRecord.decode(text);
    records.put(key, new DecodedRecord(text, decoded));
    return decoded;
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Objects this strategy remembers something of at most: the least recently used go first. */
  private static final int REMEMBERED_OBJECTS = 10_000;

  /** A thread-safe map that keeps the {@value #REMEMBERED_OBJECTS} entries used last. */
  private static <K, V> Map<K, V> recentlyUsed() {
    return java.util.Collections.synchronizedMap(
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > REMEMBERED_OBJECTS;
          }
        });
  }

  private final boolean force;
  private final Set<String> extraTakeOverManagers;

  /** Force on, taking over only this controller's own earlier writes. */
  public ServerSideApplyStrategy() {
    this(true, Set.of());
  }

  /**
   * @param force take ownership of fields other managers hold (what controllers normally want);
   *     without it such a conflict is reported as a {@link ResourceWriteException}
   * @param extraTakeOverManagers managers besides this controller's own (its field manager and its
   *     client's user-agent name) whose {@code Update} entries are taken over
   */
  public ServerSideApplyStrategy(boolean force, Set<String> extraTakeOverManagers) {
    this.force = force;
    this.extraTakeOverManagers = Set.copyOf(extraTakeOverManagers);
  }

  /**
   * an apply is a PATCH, and one that creates the object needs create as well; the clearing and
   * take-over patches are PATCHes too.
   */
  @Override
  public Set<String> verbs() {
    return Set.of("create", "patch");
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The manager name the API server records for this context's PUT and POST requests: the user
   * agent up to its first {@code /}.
   */
  static String userAgentManager(StrategyContext context) {
    String agent = context.client().getConfiguration().getUserAgent();
    if (agent == null || agent.isBlank()) {
      return FABRIC8_DEFAULT_MANAGER;
    }
    int slash = agent.indexOf('/');
    return slash < 0 ? agent : agent.substring(0, slash);
  }

  /**
   * Whether applies force conflicts.
   *
   * @return true when this strategy takes fields other managers hold
   */
  public boolean force() {
    return force;
  }

  /**
   * Managers besides this controller's own whose {@code Update} entries are taken over.
   *
   * @return the managers' names; empty when only this controller's own entries are
   */
  public Set<String> takeOverManagers() {
    return extraTakeOverManagers;
  }

  @Override
  public <R extends HasMetadata> ApplyResult<R> apply(R desired, StrategyContext context) {
    Map<String, Object> wanted = DesiredState.of(desired);
    SchemaNode schema = context.schemas().forKind(ApiKind.of(desired));
    wanted.put("apiVersion", desired.getApiVersion());
    wanted.put("kind", desired.getKind());
    Optional<R> current = context.current(desired);
    // The record of applied fields goes with every apply: the server moves a field out of this
    // manager's entry when another writer changes it, and the record still tells that this
    // controller set it, so dropping it from desired can still remove it.
    FieldSet fields = FieldSet.of(schema, wanted);
    String liveRecord =
        current
            .map(live -> live.getMetadata().getAnnotations())
            .map(a -> a.get(AppliedFieldsRecord.ANNOTATION))
            .orElse(null);
    Map<String, Object> metadata = ResourceTree.mapAtOrCreate(wanted, "metadata");
    Map<String, Object> annotations =
        new LinkedHashMap<>(ResourceTree.mapAt(metadata, "annotations").orElse(Map.of()));
    annotations.put(
        AppliedFieldsRecord.ANNOTATION,
        liveRecord != null && sameRecord(current.get().getMetadata().getUid(), liveRecord, fields)
            ? liveRecord
            : AppliedFieldsRecord.encode(fields));
    metadata.put("annotations", annotations);
    FieldSet wantedFields = fields.union(RECORD_FIELD);
    // The server records no field for a list (a map list or a set) an apply sets explicitly empty:
    // the no-op check counts them as claimed, or every apply would try to claim them again.
    FieldSet emptyLists = FieldSet.emptyLists(schema, wanted);
    List<String> sent = new ArrayList<>();
    ApplyOutcome outcome = current.isEmpty() ? ApplyOutcome.CREATED : ApplyOutcome.UPDATED;
    boolean cleared = false;
    if (current.isPresent()) {
      R live = current.get();
      Map<String, Object> liveTree = ResourceTree.of(live);
      List<Map<String, Object>> entries = ManagedFields.entries(liveTree);
      Map<String, Object> mine = ownApplyEntry(entries, context);
      List<Map<String, Object>> legacy =
          legacyEntries(entries, context, recordOf(liveTree), wantedFields);
      if (!legacy.isEmpty()) {
        R taken = takeOver(live, context, sent, wantedFields);
        Map<String, Object> takenTree = ResourceTree.of(taken);
        Map<String, Object> claimed = ownApplyEntry(ManagedFields.entries(takenTree), context);
        if (claimed != null
            && converged(
                schema,
                takenTree,
                wanted,
                wantedFields,
                emptyLists,
                ManagedFields.fieldsOf(claimed)
                    .union(ownUpdates(ManagedFields.entries(takenTree), context, wantedFields)))) {
          return new ApplyResult<>(ApplyOutcome.UPDATED, taken, String.join(", ", sent));
        }
        liveTree = takenTree;
      } else if (mine != null
          && converged(
              schema,
              liveTree,
              wanted,
              wantedFields,
              emptyLists,
              ownedFields(live, mine).union(ownUpdates(entries, context, wantedFields)))) {
        return ApplyResult.unchanged(live);
      }
      // Not converged as desired is written. Where live holds more inside values written whole,
      // the server may have filled it in: compare again with desired as the server stores it (its
      // field set is the same: those values are leaves of it).
      Map<String, Object> filled =
          ServerDefaults.fillAtomicValues(schema, liveTree, wanted, desired.getClass(), context);
      if (filled != wanted) {
        wanted = filled;
        if (legacy.isEmpty()
            && mine != null
            && converged(
                schema,
                liveTree,
                wanted,
                wantedFields,
                emptyLists,
                ownedFields(live, mine).union(ownUpdates(entries, context, wantedFields)))) {
          return ApplyResult.unchanged(live);
        }
      }
      cleared = clearUnselectedMembers(desired, schema, liveTree, wanted, context, sent);
    }
    String request =
        "PATCH application/apply-patch+yaml fieldManager="
            + context.fieldManager()
            + (force ? " force=true" : "");
    try {
      // The tree is the body as it is: reading it into the model class first, for the client to
      // copy and write again, cost two conversions of the object per apply.
      PatchContext apply =
          new PatchContext.Builder()
              .withPatchType(PatchType.SERVER_SIDE_APPLY)
              .withFieldManager(context.fieldManager())
              .withForce(force ? Boolean.TRUE : null)
              .build();
      R applied =
          context
              .client()
              .resource(addressOf(desired))
              .patch(apply, JSON.writeValueAsString(wanted));
      sent.add(request);
      if (cleared) {
        // The clearing patch was recorded as an Update of this manager; fold it into the Apply
        // entry now, so the next apply finds nothing to take over.
        applied = takeOver(applied, context, sent, wantedFields);
      }
      rememberAttributed(applied, wantedFields, context);
      return new ApplyResult<>(outcome, applied, String.join(", ", sent));
    } catch (KubernetesClientException e) {
      throw ResourceWriteException.of(desired, request, e);
    }
  }

  /**
   * Whether an apply would change nothing: live holds every desired value (by the schema: sets and
   * map lists by element, atomic maps whole, quantities by amount) and this manager's fields are
   * exactly desired's — owning more would remove something, owning less would take something over.
   */
  /**
   * Leaves the server put into this manager's entry beyond what it applied (a Service that becomes
   * ClusterIP gets its defaulted {@code internalTrafficPolicy} attributed to the applier), by
   * object and desired field set: they are no reason to apply again.
   */
  private final Map<String, Set<List<String>>> attributedByServer = recentlyUsed();

  private static String attributionKey(Object uid, FieldSet desiredFields) {
    return (uid == null ? "" : uid) + "/" + desiredFields.leaves().hashCode();
  }

  private static String attributionKey(Map<String, Object> live, FieldSet desiredFields) {
    return attributionKey(
        ResourceTree.mapAt(live, "metadata").map(m -> m.get("uid")).orElse(null), desiredFields);
  }

  private void rememberAttributed(
      HasMetadata applied, FieldSet desiredFields, StrategyContext context) {
    // Only this manager's Apply entry is read, from the model as the client decoded it: turning
    // the response, or even its managedFields, into a tree cost as much as the rest of an apply.
    ManagedFieldsEntry entry = null;
    List<ManagedFieldsEntry> entries = applied.getMetadata().getManagedFields();
    for (ManagedFieldsEntry each : entries == null ? List.<ManagedFieldsEntry>of() : entries) {
      if (isOwnApply(each.getManager(), each.getOperation(), each.getSubresource(), context)) {
        entry = each;
        break;
      }
    }
    if (entry == null) {
      return;
    }
    FieldSet owned =
        entry.getFieldsV1() == null
            ? FieldSet.empty()
            : FieldSet.fromFieldsV1(entry.getFieldsV1().getAdditionalProperties());
    Set<List<String>> extra = new LinkedHashSet<>(owned.leaves());
    extra.removeAll(desiredFields.leaves());
    String key = attributionKey(applied.getMetadata().getUid(), desiredFields);
    if (extra.isEmpty()) {
      attributedByServer.remove(key);
    } else {
      attributedByServer.put(key, extra);
    }
  }

  boolean converged(
      SchemaNode schema,
      Map<String, Object> live,
      Map<String, Object> wanted,
      FieldSet desiredFields,
      FieldSet emptyLists,
      FieldSet ownedByEntries) {
    Optional<String> difference = Comparison.firstDifference(schema, live, wanted);
    if (difference.isPresent()) {
      log.debug("apply needed: live differs at {}", difference.get());
      return false;
    }
    // Live holds desired, so a list desired sets empty is empty in live (or holds only other
    // writers' elements): it is claimed although no entry can show it. An element this manager
    // still owns below it keeps the sets apart, so a list being emptied is still applied.
    FieldSet owned = emptyLists.isEmpty() ? ownedByEntries : ownedByEntries.union(emptyLists);
    if (!owned.sameLeaves(desiredFields) && !onlyAttributedByServer(live, owned, desiredFields)) {
      if (log.isDebugEnabled()) {
        Set<List<String>> extra = new LinkedHashSet<>(owned.leaves());
        extra.removeAll(desiredFields.leaves());
        Set<List<String>> missing = new LinkedHashSet<>(desiredFields.leaves());
        missing.removeAll(owned.leaves());
        log.debug(
            "apply needed: owned but no longer desired {}, desired but not owned {}",
            extra,
            missing);
      }
      return false;
    }
    if (Merge.clearsMembers(schema, live, wanted)) {
      log.debug("apply needed: one-of members to clear");
      return false;
    }
    return true;
  }

  /** Whether the leaves this manager owns beyond desired's are all ones the server put there. */
  private boolean onlyAttributedByServer(
      Map<String, Object> live, FieldSet owned, FieldSet desiredFields) {
    Set<List<String>> known = attributedByServer.get(attributionKey(live, desiredFields));
    if (known == null) {
      return false;
    }
    Set<List<String>> ownedLeaves = owned.leaves();
    Set<List<String>> desiredLeaves = desiredFields.leaves();
    if (!ownedLeaves.containsAll(desiredLeaves)) {
      return false;
    }
    Set<List<String>> extra = new LinkedHashSet<>(ownedLeaves);
    extra.removeAll(desiredLeaves);
    return known.containsAll(extra);
  }

  /**
   * Values an apply would not remove are cleared with one JSON patch before it: one-of members
   * desired does not select but live still holds — values the server defaulted (a Deployment's
   * {@code rollingUpdate} when its strategy becomes {@code Recreate}), which no manager owns, or a
   * member another writer changed — and values this manager applied, desired dropped and another
   * manager co-owns (a probe desired drops whose period another writer changed). A JSON patch
   * reaches inside lists, by the element's position in live, and the patch first tests the
   * resourceVersion, so a position cannot have moved. Where a member is cleared, the members and
   * the discriminator desired selects go in the same request, so the object stays valid in between.
   */
  private <R extends HasMetadata> boolean clearUnselectedMembers(
      R desired,
      SchemaNode schema,
      Map<String, Object> liveTree,
      Map<String, Object> wanted,
      StrategyContext context,
      List<String> sent) {
    Map<String, Object> mine = ownApplyEntry(ManagedFields.entries(liveTree), context);
    FieldSet applied =
        (mine == null ? FieldSet.empty() : ManagedFields.fieldsOf(mine)).union(recordOf(liveTree));
    Merge.Result merged =
        Merge.apply(
            schema,
            liveTree,
            wanted,
            applied,
            // Another manager's ownership of a value keeps it (as the server's apply does), under
            // any operation and through any subresource.
            ManagedFields.ownedByOthers(liveTree, ManagedFields.ownManagers(context)),
            // An apply removes only what its own Apply entry holds: a field this manager's Update
            // entries also hold (its patches; an autoscaler's spec.metrics, which the server
            // credits to every update) is its own to remove, but stays unless cleared here.
            ownUpdates(ManagedFields.entries(liveTree), context, null));
    Set<String> removedPointers = new LinkedHashSet<>();
    for (String path : merged.contested()) {
      removedPointers.add(merged.pointer(path));
    }
    for (String path : merged.cleared()) {
      removedPointers.add(merged.pointer(path));
    }
    for (String path : merged.removed()) {
      // A map or list desired sets explicitly empty, which the apply would empty: the server's
      // apply turns a map or list it empties into null, which a custom resource's schema refuses.
      String pointer = merged.pointer(path);
      Object parent = Merge.desiredAt(schema, liveTree, wanted, parentOf(pointer));
      if ((parent instanceof Map<?, ?> m && m.isEmpty())
          || (parent instanceof List<?> l && l.isEmpty())) {
        removedPointers.add(pointer);
      }
    }
    if (removedPointers.isEmpty()) {
      return false;
    }
    // Every other removal in the same structs goes in the same request (a Service's type desired
    // dropped goes with the externalName it selected), so the object stays valid in between.
    Set<String> touched = new LinkedHashSet<>();
    removedPointers.forEach(p -> touched.add(parentOf(p)));
    for (String path : merged.removed()) {
      String pointer = merged.pointer(path);
      if (touched.contains(parentOf(pointer))) {
        removedPointers.add(pointer);
      }
    }
    // A removal inside a value removed whole is already done by the outer one.
    List<String> outermost =
        removedPointers.stream()
            .distinct()
            .filter(
                p -> removedPointers.stream().noneMatch(q -> !q.equals(p) && p.startsWith(q + "/")))
            .toList();
    Set<String> parents = new LinkedHashSet<>();
    outermost.forEach(p -> parents.add(parentOf(p)));
    // No resourceVersion test (status writers move it all the time): each list position the patch
    // names is tested by the element's keys instead.
    Map<String, Object> tests = new LinkedHashMap<>();
    outermost.forEach(p -> tests.putAll(Merge.positionTests(schema, liveTree, p)));
    List<Map<String, Object>> ops = new ArrayList<>();
    tests.forEach(
        (pointer, value) -> ops.add(Map.of("op", "test", "path", pointer, "value", value)));
    for (String parent : parents) {
      if (outermost.stream().anyMatch(p -> parent.startsWith(p + "/") || parent.equals(p))) {
        continue;
      }
      Object liveParent = pointerValue(liveTree, parent);
      if (!(Merge.desiredAt(schema, liveTree, wanted, parent) instanceof Map<?, ?> want)
          || !(liveParent instanceof Map<?, ?> have)) {
        continue;
      }
      for (Map.Entry<?, ?> e : want.entrySet()) {
        Object value = e.getValue();
        Object current = have.get(e.getKey());
        boolean scalar = !(value instanceof Map<?, ?>) && !(value instanceof List<?>);
        if (value != null && (current == null || (scalar && !value.equals(current)))) {
          ops.add(
              Map.of(
                  "op", "add", "path", parent + "/" + escape((String) e.getKey()), "value", value));
        }
      }
    }
    // Adds touch map keys only; removals go last, later list positions first, so no position
    // an operation names has moved (the server validates the patched object as a whole).
    outermost.stream()
        .sorted(ServerSideApplyStrategy::laterFirst)
        .forEach(pointer -> ops.add(Map.of("op", "remove", "path", pointer)));
    String body = JSON.writeValueAsString(ops);
    String request =
        "PATCH application/json-patch+json (clear " + String.join(", ", outermost) + ")";
    PatchContext patchContext = PatchContext.of(PatchType.JSON);
    patchContext.setFieldManager(context.fieldManager());
    try {
      context.client().resource(desired).patch(patchContext, body);
      sent.add(request);
      return true;
    } catch (KubernetesClientException e) {
      throw ResourceWriteException.of(desired, request + " " + body, e);
    }
  }

  /** Each class's public constructor without arguments, looked up once per class. */
  private static final ClassValue<Optional<Constructor<?>>> NO_ARGUMENT_CONSTRUCTORS =
      new ClassValue<>() {
        @Override
        protected Optional<Constructor<?>> computeValue(Class<?> type) {
          try {
            return Optional.of(type.getConstructor());
          } catch (NoSuchMethodException | SecurityException e) {
            return Optional.empty();
          }
        }
      };

  /**
   * An object of desired's class naming what desired names and holding nothing else: the client
   * copies the object a text patch is sent for (for its name and namespace alone), and a copy of
   * the whole desired object cost a conversion to JSON and back per apply. Desired itself when its
   * class cannot be made so.
   */
  @SuppressWarnings("unchecked")
  static <R extends HasMetadata> R addressOf(R desired) {
    if (desired.getMetadata() == null) {
      return desired;
    }
    Constructor<?> make = NO_ARGUMENT_CONSTRUCTORS.get(desired.getClass()).orElse(null);
    if (make == null) {
      return desired;
    }
    R address;
    try {
      address = (R) make.newInstance();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return desired;
    }
    if (address instanceof GenericKubernetesResource generic) {
      generic.setApiVersion(desired.getApiVersion());
      generic.setKind(desired.getKind());
    }
    address.setMetadata(
        new ObjectMetaBuilder()
            .withName(desired.getMetadata().getName())
            .withNamespace(desired.getMetadata().getNamespace())
            .build());
    return java.util.Objects.equals(address.getApiVersion(), desired.getApiVersion())
            && java.util.Objects.equals(address.getKind(), desired.getKind())
        ? address
        : desired;
  }

  private static String parentOf(String pointer) {
    return pointer.substring(0, pointer.lastIndexOf('/'));
  }

  /** Orders JSON pointers so that of two elements of one list the later comes first. */
  private static int laterFirst(String a, String b) {
    String[] x = a.split("/", -1);
    String[] y = b.split("/", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (!x[i].equals(y[i])) {
        boolean numeric =
            x[i].chars().allMatch(Character::isDigit)
                && y[i].chars().allMatch(Character::isDigit)
                && !x[i].isEmpty()
                && !y[i].isEmpty();
        return numeric
            ? Integer.compare(Integer.parseInt(y[i]), Integer.parseInt(x[i]))
            : x[i].compareTo(y[i]);
      }
    }
    return Integer.compare(y.length, x.length);
  }

  private static Object pointerValue(Map<String, Object> tree, String pointer) {
    Object node = tree;
    if (pointer.isEmpty()) {
      return node;
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      String step = raw.replace("~1", "/").replace("~0", "~");
      if (node instanceof Map<?, ?> map) {
        node = map.get(step);
      } else if (node instanceof List<?> list) {
        int index = Integer.parseInt(step);
        node = index < list.size() ? list.get(index) : null;
      } else {
        return null;
      }
    }
    return node;
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private Map<String, Object> ownApplyEntry(
      List<Map<String, Object>> entries, StrategyContext context) {
    return entries.stream()
        .filter(
            e -> isOwnApply(e.get("manager"), e.get("operation"), e.get("subresource"), context))
        .findFirst()
        .orElse(null);
  }

  /** Whether an entry records this manager's applies to the object itself. */
  private static boolean isOwnApply(
      Object manager, Object operation, Object subresource, StrategyContext context) {
    return context.fieldManager().equals(manager)
        && "Apply".equals(operation)
        && (subresource == null || "".equals(subresource));
  }

  private List<Map<String, Object>> legacyEntries(
      List<Map<String, Object>> entries,
      StrategyContext context,
      FieldSet record,
      FieldSet wanted) {
    return entries.stream()
        .filter(
            e ->
                "Update".equals(e.get("operation"))
                    && isMainResource(e)
                    && (extraTakeOverManagers.contains(e.get("manager"))
                        || (context.fieldManager().equals(e.get("manager"))
                            && holdsUndesired(e, context, record, wanted))
                        || (userAgentManager(context).equals(e.get("manager"))
                            && !claimable(e, context, record, wanted).isEmpty())))
        .toList();
  }

  /**
   * Whether this manager's own {@code Update} entry holds a field it recorded setting that desired
   * no longer sets: only then must the entry be taken over, or the apply could not remove the
   * field. Desired fields it shares with the {@code Apply} entry are harmless; taking them over
   * would even repeat forever where the server credits every update with a field (an autoscaler's
   * {@code spec.metrics}, which its conversion rewrites on each write).
   */
  private boolean holdsUndesired(
      Map<String, Object> entry, StrategyContext context, FieldSet record, FieldSet wanted) {
    Set<List<String>> leaves =
        new LinkedHashSet<>(claimable(entry, context, record, wanted).leaves());
    leaves.removeAll(wanted.leaves());
    return !leaves.isEmpty();
  }

  /**
   * The fields this manager's own {@code Update} entries hold (its patches' fields), those of
   * {@code wanted} only unless it is null.
   */
  private FieldSet ownUpdates(
      List<Map<String, Object>> entries, StrategyContext context, FieldSet wanted) {
    FieldSet out = FieldSet.empty();
    for (Map<String, Object> entry : entries) {
      if ("Update".equals(entry.get("operation"))
          && isMainResource(entry)
          && context.fieldManager().equals(entry.get("manager"))) {
        FieldSet fields = ManagedFields.fieldsOf(entry);
        out = out.union(wanted == null ? fields : fields.intersectExact(wanted));
      }
    }
    return out;
  }

  /**
   * The fields of a legacy entry this controller may claim. Under a user agent of its own, all of
   * them; under fabric8's default name, which every fabric8 tool shares, only those the
   * applied-fields record of the update or merge-patch strategy says this controller wrote —
   * another tool's finalizer or label recorded under the same name stays that tool's.
   */
  private FieldSet claimable(
      Map<String, Object> entry, StrategyContext context, FieldSet record, FieldSet wanted) {
    FieldSet fields = ManagedFields.fieldsOf(entry);
    if (shared(entry, context)) {
      return fields.intersect(record);
    }
    if (context.fieldManager().equals(entry.get("manager"))) {
      // The server records what defaulting changed after this manager's own apply or patch (an
      // autoscaler's scaleDown defaulted again once an apply removed it) as an Update of this
      // manager. Claiming that would make the next apply remove it, and so on forever: only what
      // this controller sets or recorded setting is its own.
      return fields.intersectExact(wanted.union(record));
    }
    return fields;
  }

  private static boolean shared(Map<String, Object> entry, StrategyContext context) {
    return FABRIC8_DEFAULT_MANAGER.equals(entry.get("manager"))
        && !context.fieldManager().equals(entry.get("manager"));
  }

  private FieldSet recordOf(Map<String, Object> liveTree) {
    try {
      return decodedRecord(
          ResourceTree.mapAt(liveTree, "metadata").map(m -> m.get("uid")).orElse(null),
          ResourceTree.mapAt(liveTree, "metadata", "annotations")
              .map(a -> a.get(AppliedFieldsRecord.ANNOTATION))
              .map(String::valueOf)
              .orElse(null));
    } catch (IllegalArgumentException e) {
      return FieldSet.empty();
    }
  }

  /**
   * Moves this controller's {@code Update} entries into its {@code Apply} entry. The patch is
   * guarded by a {@code test} of the resourceVersion, which the API server answers with 422 when
   * the object changed in between (a controller's status write, typically): then it reads the
   * object again and retries, a bounded number of times.
   */
  private <R extends HasMetadata> R takeOver(
      R live, StrategyContext context, List<String> sent, FieldSet within) {
    R current = live;
    for (int attempt = 1; ; attempt++) {
      Map<String, Object> currentTree = ResourceTree.of(current);
      List<Map<String, Object>> entries = managedFields(currentTree);
      FieldSet record = recordOf(currentTree);
      List<Map<String, Object>> legacy = legacyEntries(entries, context, record, within);
      if (legacy.isEmpty()) {
        return current;
      }
      try {
        return takeOverOnce(
            current,
            entries,
            ownApplyEntry(entries, context),
            legacy,
            record,
            context,
            sent,
            within);
      } catch (ResourceWriteException e) {
        R fresh = context.client().resource(current).get();
        boolean moved =
            fresh != null
                && !java.util.Objects.equals(
                    fresh.getMetadata().getResourceVersion(),
                    current.getMetadata().getResourceVersion());
        if (e.code() != 422 || !moved || attempt == MAX_TAKE_OVER_ATTEMPTS) {
          throw e;
        }
        current = fresh;
      }
    }
  }

  private static final int MAX_TAKE_OVER_ATTEMPTS = 5;

  private <R extends HasMetadata> R takeOverOnce(
      R live,
      List<Map<String, Object>> entries,
      Map<String, Object> mine,
      List<Map<String, Object>> legacy,
      FieldSet record,
      StrategyContext context,
      List<String> sent,
      FieldSet within) {
    FieldSet union = mine == null ? FieldSet.empty() : ManagedFields.fieldsOf(mine);
    Set<String> from = new LinkedHashSet<>();
    java.util.IdentityHashMap<Map<String, Object>, Map<String, Object>> remaining =
        new java.util.IdentityHashMap<>();
    for (Map<String, Object> entry : legacy) {
      FieldSet claim = claimable(entry, context, record, within);
      union = union.union(claim);
      from.add(entry.get("manager") + "/Update");
      FieldSet rest = ManagedFields.fieldsOf(entry).minus(claim);
      if (!rest.isEmpty()) {
        Map<String, Object> kept = new LinkedHashMap<>(entry);
        kept.put("fieldsV1", rest.toFieldsV1());
        remaining.put(entry, kept);
      }
    }
    Map<String, Object> claimed = new LinkedHashMap<>();
    claimed.put("manager", context.fieldManager());
    claimed.put("operation", "Apply");
    claimed.put("apiVersion", live.getApiVersion());
    claimed.put("time", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    claimed.put("fieldsType", "FieldsV1");
    claimed.put("fieldsV1", union.toFieldsV1());
    List<Map<String, Object>> rewritten = new ArrayList<>();
    for (Map<String, Object> entry : entries) {
      if (entry == mine) {
        rewritten.add(claimed);
      } else if (!legacy.contains(entry)) {
        rewritten.add(entry);
      } else if (remaining.containsKey(entry)) {
        rewritten.add(remaining.get(entry));
      }
    }
    if (mine == null) {
      rewritten.add(claimed);
    }
    String resourceVersion = live.getMetadata().getResourceVersion();
    List<Map<String, Object>> ops =
        List.of(
            Map.of("op", "test", "path", "/metadata/resourceVersion", "value", resourceVersion),
            Map.of("op", "replace", "path", "/metadata/managedFields", "value", rewritten));
    String request =
        "PATCH application/json-patch+json managedFields (take over "
            + String.join(", ", from)
            + ")";
    PatchContext patchContext = PatchContext.of(PatchType.JSON);
    patchContext.setFieldManager(context.fieldManager());
    try {
      R patched = context.client().resource(live).patch(patchContext, JSON.writeValueAsString(ops));
      sent.add(request);
      return patched;
    } catch (KubernetesClientException e) {
      throw ResourceWriteException.of(live, request, e);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> managedFields(Map<String, Object> liveTree) {
    Object list =
        ResourceTree.mapAt(liveTree, "metadata").map(m -> m.get("managedFields")).orElse(null);
    if (!(list instanceof List<?> l)) {
      return List.of();
    }
    return l.stream().filter(Map.class::isInstance).map(m -> (Map<String, Object>) m).toList();
  }

  private static boolean isMainResource(Map<String, Object> entry) {
    Object subresource = entry.get("subresource");
    return subresource == null || "".equals(subresource);
  }
}
