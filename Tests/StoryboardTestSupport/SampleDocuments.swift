/// Small Interface Builder documents that both the importer's tests and the lint's read.
package enum SampleDocuments {
  /// The body of a XIB whose containers nest their children (a tab bar holding a navigation
  /// controller and a controller), with a view and a text field; a navigation controller's
  /// second child is not imported (line 17).
  package static let nestedContainers = """
    <objects>
      <tabBarController restorationIdentifier="Tabs" id="tabs">
        <viewControllers>
          <navigationController restorationIdentifier="Nav" id="nav">
            <viewControllers>
              <viewController restorationIdentifier="Home" title="Home" id="home">
                <view key="view" id="homeView" hidden="YES">
                  <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                  <subviews>
                    <textField restorationIdentifier="Name" text="Ada" id="name">
                      <rect key="frame" x="0.0" y="0.0" width="100" height="30"/>
                    </textField>
                  </subviews>
                </view>
              </viewController>
              <viewController id="second"/>
            </viewControllers>
          </navigationController>
          <viewController restorationIdentifier="Other" id="other"/>
        </viewControllers>
      </tabBarController>
    </objects>
    """

  /// A XIB in the old `<archive>` format: a controller of a custom class with an identifier, a
  /// view and a text field with an identifier.
  package static let archiveFormatXIB = """
    <?xml version="1.0" encoding="UTF-8"?>
    <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="8.00">
      <data>
        <array class="NSMutableArray" key="IBDocument.RootObjects" id="1000">
          <object class="IBUIViewController" id="42">
            <string key="IBUIRestorationIdentifier">Editor</string>
          </object>
          <object class="IBUIView" id="7">
            <array class="NSMutableArray" key="NSSubviews">
              <reference ref="8"/>
            </array>
            <object class="IBUITextField" key="NSNextKeyView" id="8">
              <string key="IBUIRestorationIdentifier">Title</string>
              <string key="IBUIText">Draft</string>
            </object>
          </object>
        </array>
        <object class="IBObjectContainer" key="IBDocument.Objects">
          <object class="IBMutableOrderedSet" key="objectRecords">
            <array key="orderedObjects">
              <object class="IBObjectRecord">
                <int key="objectID">3</int>
                <reference key="object" ref="42"/>
              </object>
            </array>
          </object>
          <dictionary class="NSMutableDictionary" key="flattenedProperties">
            <string key="3.CustomClassName">EditorViewController</string>
          </dictionary>
        </object>
      </data>
    </archive>
    """

  /// The body of a storyboard with a chain of `count` navigation controllers, each the root of
  /// the one before; the first has the ID `n0`.
  ///
  /// - Parameter count: How many controllers.
  /// - Returns: The `<scenes>` element.
  package static func containerChain(count: Int) -> String {
    let scenes = (0..<count).map { index in
      let next =
        index + 1 < count
        ? "<connections><segue destination=\"n\(index + 1)\" kind=\"relationship\" relationship=\"rootViewController\" id=\"r\(index)\"/></connections>"
        : ""
      return """
        <navigationController restorationIdentifier="N\(index)" id="n\(index)" sceneMemberID="viewController">\(next)</navigationController>
        """
    }
    return "<scenes><scene sceneID=\"s\"><objects>\(scenes.joined())</objects></scene></scenes>"
  }
}
