// swift-format-ignore-file
import CarPlay

/// The app's CarPlay screen: the notes, read aloud.
final class CarPlaySceneDelegate: UIResponder, CPTemplateApplicationSceneDelegate {
  var interfaceController: CPInterfaceController?

  func templateApplicationScene(
    _ templateApplicationScene: CPTemplateApplicationScene,
    didConnect interfaceController: CPInterfaceController
  ) {
    self.interfaceController = interfaceController
    let list = CPListTemplate(title: "Notes", sections: [])
    interfaceController.setRootTemplate(list, animated: false, completion: nil)
  }
}
