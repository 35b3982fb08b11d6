// Every memory technique of the ObjectGraph module that the compiler does not check, and the
// invariant that makes each one sound. The rest of the module reaches raw memory, unretained
// references and manual reference counts only through the types of this folder (a test,
// `UnsafeConfinementTests`, keeps it so).
//
// | technique                                   | where                              | invariant upheld by |
// | ------------------------------------------- | ---------------------------------- | ------------------- |
// | references that count nothing               | `_Unretained` (Unretained.swift)   | whoever stores one names the owner that keeps the object alive |
// | an array element read as a word             | `_Unretained.element(at:of:)`      | the graph never removes an entity |
// | property storage by byte offset             | `_storagePointer`, `_storageOffset` (ObjectFields.swift) | `EntityDescription` records offsets of the object's own class |
// | a to-one relationship as one reference word | `_ToOneSlot` (ObjectFields.swift)  | `_GraphEntity` requires one word per to-one slot |
// | objects retained by hand in a `malloc` table | `_ObjectTable` (ObjectTable.swift) | the table alone |
// | members retained by hand in `malloc` lists  | `_DeferredInverseLists`, `_AdoptedMembers` (DeferredInverseLists.swift) | the lists alone; a flush hands each reference over once |
// | a buffer of plain values read without a retain | `_FrozenBuffer` (FrozenBuffer.swift) | its owner frees it once |
// | object addresses for cache hints            | `ObjectGraph.objectAddress(with:)` | callers only prefetch them (MemoryHints) |
// | a snapshot's bulk restore: to-one slots read and written in place, table objects unretained (an array's references read as words), counted member lists adopted | ObjectGraph+BulkRestore.swift | the store restores into a graph with no pending change; the entity tables keep every object alive |
// | a snapshot's bulk read: table objects handed out unretained, to-one slots read in place | ObjectGraph+BulkRead.swift | the store does not change the graph while it holds them; the entity tables keep every object alive |
// | an attribute's value read and written in place for a store's typed loops (no offset leaves this module) | `AttributeValueSlot` (AttributeValueSlot.swift) | made from the class's own `AttributeStorage`; each object's class is checked; the store writes only while it loads a graph, and reads while it does not change it |
//
// Two techniques are attributes and stay on the declarations they qualify; they are listed
// here so that this file stays the whole inventory.
//
// `@exclusivity(unchecked)`: the fields below are touched on every property write or tracked
// read, where a dynamic exclusivity check is a runtime call per access. They are confined to
// their graph's isolation domain, and no access to one is held across a call that could
// reach it again (the module's own code keeps each access inside one statement), so the
// checks could never fire:
// - `ObjectGraph`: `_entities`, `_lastEntity`, `_lastEntityType`, `_pending`, `_insertRuns`,
//   `_deletedInserts`, `_deferredInverses`, `_insertsMayHoldInvalidTargets`, `_isCommitting`,
//   `_validatingInserts`;
// - `_GraphEntity`: `liveCount`, `inverses`, `bulkLinks`;
// - `_GraphContext`: `_readMode`, `_unretainedGraph`, `_reads`, `_owner`, `_ownerBits`,
//   `_trackingDepth`;
// - `GraphObject`: `_context`, `_idBits`, `_entity`, `_pendingSlot`, `_flags`.
//
// `unowned(unsafe)`: references to objects that outlive every holder, read without a check:
// entity descriptions and their accessors are never freed (`GraphObject._entity`,
// `ObjectID._entity`, `_BulkToOne.accessor`); a graph keeps its entities for its life
// (`_InsertRun.entity`, `_InverseLink.entity`); an object keeps its context retained by hand
// (`GraphObject._context`, see `_attach(to:)`); a deferred list's target is held by its
// entity table (`_DeferredInverse.target`).
//
// One exception outside this folder: `RelationshipValue`'s `firstUnretained(of:)` and
// `adopt(_:into:)` spell `Unmanaged` in their signatures, because the relationship shapes
// that implement them are public (the wrappers are inlined into the user's module). The
// module wraps what they return in `_Unretained` at once.
//
// Checked in debug builds only: `unsafeDowncast`, `unsafelyUnwrapped` and
// `unsafeUninitializedCapacity` trap on a wrong class, a `nil` or a wrong count in a debug
// build and trust the code in an optimized one. They stay where they are used, on hot paths
// (a relationship read, a tracked read, a fetch of one class's objects), and each use is
// counted here with what makes it sound (`UnsafeConfinementTests` checks the counts):
// - `RelationshipValue.swift`: unsafeDowncast ×10 — every object a relationship holds has
//   its destination class: the typed setters accept nothing else, and a batch, the store's
//   restore and undo check the class (`destinations`) before they store one;
// - `ObjectGraph.swift`: unsafeDowncast ×1 — an entity's table holds objects of its class only
//   (one `_GraphEntity` per class);
// - `PropertyAccessor.swift`: unsafeDowncast ×4 — a saved value is the `_SavedStorage` box the
//   same accessor made (each attribute's accessor saves and reads its own values);
// - `GraphContext.swift`: unsafelyUnwrapped ×2 — a tracked read comes from an object attached
//   to a graph, and attaching sets `_entity`;
// - `ObjectGraph.Entity.swift`: unsafelyUnwrapped ×1 — `bulkLinks` is made on the line before
//   when it is `nil`.
