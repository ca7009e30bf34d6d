import StateRestoration
import StateRestorationUI
import Testing

/// Controllers and views hand the walk the same children, in the same order, as their
/// `restorationChildren` arrays.
@Suite struct ChildHandOverUITests {
  private func handed(_ node: any RestorationNode) -> [ObjectIdentifier] {
    var handed: [ObjectIdentifier] = []
    node.forEachRestorationChild { handed.append(ObjectIdentifier($0)) }
    return handed
  }

  @Test func aControllerHandsOverItsChildrenThenItsLoadedView() {
    let controller = ViewController(restorationIdentifier: "Container")
    let first = ViewController(restorationIdentifier: "First")
    let second = ViewController(restorationIdentifier: "Second")
    controller.addChild(first)
    controller.addChild(second)
    #expect(handed(controller) == [first, second].map(ObjectIdentifier.init))

    controller.loadViewIfNeeded()
    let expected = controller.restorationChildren.map { ObjectIdentifier($0) }
    #expect(handed(controller) == expected)
    #expect(expected.last == ObjectIdentifier(controller.view))
    #expect(expected.count == 3)
  }

  @Test func aViewHandsOverItsSubviewsInOrder() {
    let view = View(restorationIdentifier: "Root")
    let subviews = (0..<4).map { View(restorationIdentifier: "Subview\($0)") }
    for subview in subviews { view.addSubview(subview) }
    #expect(handed(view) == subviews.map(ObjectIdentifier.init))
    #expect(handed(view) == view.restorationChildren.map { ObjectIdentifier($0) })
    #expect(handed(View()).isEmpty)
  }
}
