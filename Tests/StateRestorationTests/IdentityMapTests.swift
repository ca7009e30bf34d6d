import StateRestoration
import Testing

/// The identity map the passes keep their per-object tables in (paths, pins, visited objects).
@Suite struct IdentityMapTests {
  private final class Object {}

  @Test func valuesSurviveEveryGrowth() {
    // Starts at 16 slots and doubles at half full: 3,000 identities grow it eight times.
    let objects = (0..<3_000).map { _ in Object() }
    var map = IdentityMap<Int>()
    for (index, object) in objects.enumerated() { map[ObjectIdentifier(object)] = index }
    #expect(map.count == objects.count)
    for (index, object) in objects.enumerated() {
      #expect(map[ObjectIdentifier(object)] == index)
    }
    // The objects are kept alive until the lookup, so that the new object cannot take the
    // address of one freed early, as an optimized build may free them after their last use.
    withExtendedLifetime(objects) {
      #expect(map[ObjectIdentifier(Object())] == nil)
    }
  }

  @Test func reservingRoomKeepsWhatIsThere() {
    let objects = (0..<40).map { _ in Object() }
    var map = IdentityMap<String>()
    for (index, object) in objects.enumerated() { map[ObjectIdentifier(object)] = "\(index)" }
    map.reserveCapacity(10_000)
    for (index, object) in objects.enumerated() {
      #expect(map[ObjectIdentifier(object)] == "\(index)")
    }
  }

  @Test func insertKeepsTheFirstValueAndSettingReplacesIt() {
    let object = Object()
    let key = ObjectIdentifier(object)
    var map = IdentityMap<Int>()
    let first = map.insert(1, for: key)
    let second = map.insert(2, for: key)
    #expect(first)
    #expect(!second)
    #expect(map[key] == 1)
    map[key] = 3
    #expect(map[key] == 3)
    #expect(map.count == 1)
  }

  @Test func aValueSetToNilIsForgottenAndCanBeInsertedAgain() {
    let objects = (0..<100).map { _ in Object() }
    var map = IdentityMap<Int>()
    for (index, object) in objects.enumerated() { map[ObjectIdentifier(object)] = index }
    for object in objects[..<50] { map[ObjectIdentifier(object)] = nil }
    for (index, object) in objects.enumerated() {
      #expect(map[ObjectIdentifier(object)] == (index < 50 ? nil : index))
    }
    let inserted = map.insert(-1, for: ObjectIdentifier(objects[0]))
    #expect(inserted)
    #expect(map[ObjectIdentifier(objects[0])] == -1)
    // Forgotten values keep their slots, so the later identities are still found.
    #expect(map[ObjectIdentifier(objects[99])] == 99)
  }
}
