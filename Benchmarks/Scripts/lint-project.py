#!/usr/bin/env python3
"""Times `restoration-archive-tool lint` on a generated iOS project folder.

The project has SWIFT_FILES Swift files (view controllers that encode and decode state, push
controllers created in code, restoration factories, a data source, an app delegate) and
STORYBOARDS storyboards of ten scenes each (a tab bar, navigation controllers, tables, views
with identifiers), like a large app's. The goal is under 5 seconds for 2,000 Swift files and
100 storyboards on a 2-core machine.

Usage:
  swift build -c release --product restoration-archive-tool
  python3 Benchmarks/Scripts/lint-project.py .build/release/restoration-archive-tool
  python3 Benchmarks/Scripts/lint-project.py TOOL --swift-files 2000 --storyboards 100 --runs 5
  python3 Benchmarks/Scripts/lint-project.py TOOL --scenes

With --scenes the app uses scenes as well: an Xcode project with one target that lists every
file, an Info.plist with a scene manifest and NSUserActivityTypes, a scene delegate that
restores from the activity, and in each screen an activity created and one restored.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CONTROLLER = """import UIKit

/// Screen {n}: a list of items whose selection and scroll position survive a relaunch.
final class Screen{n}ViewController: UITableViewController {{
  var items: [String] = (0..<50).map {{ "item \\($0)" }}
  var selectedIdentifier: String?
  var filter = ""
  var sortAscending = true

  init() {{
    super.init(style: .plain)
    restorationIdentifier = "Screen{n}"
    restorationClass = Screen{n}ViewController.self
  }}

  required init?(coder: NSCoder) {{
    super.init(coder: coder)
  }}

  override func viewDidLoad() {{
    super.viewDidLoad()
    tableView.restorationIdentifier = "Screen{n}Table"
    title = "Screen {n}"
  }}

  override func encodeRestorableState(with coder: NSCoder) {{
    super.encodeRestorableState(with: coder)
    coder.encode(selectedIdentifier, forKey: "selected{n}")
    coder.encode(filter, forKey: "filter{n}")
    coder.encode(sortAscending, forKey: "sort{n}")
  }}

  override func decodeRestorableState(with coder: NSCoder) {{
    super.decodeRestorableState(with: coder)
    selectedIdentifier = coder.decodeObject(forKey: "selected{n}") as? String
    filter = coder.decodeObject(forKey: "filter{n}") as? String ?? ""
    sortAscending = coder.decodeBool(forKey: "sort{n}")
  }}

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {{
    items.count
  }}

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath)
    -> UITableViewCell
  {{
    let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
    cell.textLabel?.text = items[indexPath.row]
    return cell
  }}

  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {{
    let detail = Detail{n}ViewController(item: items[indexPath.row])
    navigationController?.pushViewController(detail, animated: true)
  }}
}}

extension Screen{n}ViewController: UIViewControllerRestoration {{
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {{
    Screen{n}ViewController()
  }}
}}

extension Screen{n}ViewController: UIDataSourceModelAssociation {{
  func modelIdentifierForElement(at idx: IndexPath, in view: UIView) -> String? {{
    items[idx.row]
  }}

  func indexPathForElement(withModelIdentifier identifier: String, in view: UIView) -> IndexPath? {{
    items.firstIndex(of: identifier).map {{ IndexPath(row: $0, section: 0) }}
  }}
}}

/// The detail of one item of screen {n}, created in code.
final class Detail{n}ViewController: UIViewController, UIViewControllerRestoration {{
  let item: String

  init(item: String) {{
    self.item = item
    super.init(nibName: nil, bundle: nil)
    restorationIdentifier = "Detail{n}"
    restorationClass = Detail{n}ViewController.self
  }}

  required init?(coder: NSCoder) {{
    item = ""
    super.init(coder: coder)
  }}

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {{
    guard let item = coder.decodeObject(forKey: "item{n}") as? String else {{ return nil }}
    return Detail{n}ViewController(item: item)
  }}

  override func encodeRestorableState(with coder: NSCoder) {{
    super.encodeRestorableState(with: coder)
    coder.encode(item, forKey: "item{n}")
  }}
}}
"""

APP_DELEGATE = """import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(
    _ application: UIApplication,
    willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    window?.makeKeyAndVisible()
    return true
  }

  func application(_ application: UIApplication, shouldSaveSecureApplicationState coder: NSCoder)
    -> Bool
  { true }

  func application(
    _ application: UIApplication, shouldRestoreSecureApplicationState coder: NSCoder
  ) -> Bool { true }
}
"""


SCENE_CONTROLLER = """
extension Screen{n}ViewController {{
  override func viewDidAppear(_ animated: Bool) {{
    super.viewDidAppear(animated)
    let activity = NSUserActivity(activityType: ActivityType.screen)
    activity.userInfo = ["screen": {n}, "selected": selectedIdentifier ?? ""]
    view.window?.windowScene?.userActivity = activity
  }}

  func restore(from activity: NSUserActivity) {{
    guard activity.activityType == ActivityType.screen,
      let selected = activity.userInfo?["selected"] as? String
    else {{ return }}
    selectedIdentifier = selected
  }}
}}
"""

SCENE_DELEGATE = """import UIKit

enum ActivityType {
  static let screen = "com.example.app.screen"
}

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession,
    options connectionOptions: UIScene.ConnectionOptions
  ) {
    guard let windowScene = scene as? UIWindowScene else { return }
    let screen = Screen1ViewController()
    let window = UIWindow(windowScene: windowScene)
    window.rootViewController = UINavigationController(rootViewController: screen)
    if let activity = connectionOptions.userActivities.first ?? session.stateRestorationActivity {
      screen.restore(from: activity)
    }
    self.window = window
    window.makeKeyAndVisible()
  }

  func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
    scene.userActivity
  }
}
"""

INFO_PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleIdentifier</key>
	<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
	<key>NSUserActivityTypes</key>
	<array>
		<string>$(PRODUCT_BUNDLE_IDENTIFIER).screen</string>
	</array>
	<key>UIApplicationSceneManifest</key>
	<dict>
		<key>UISceneConfigurations</key>
		<dict>
			<key>UIWindowSceneSessionRoleApplication</key>
			<array>
				<dict>
					<key>UISceneConfigurationName</key>
					<string>Default Configuration</string>
					<key>UISceneDelegateClassName</key>
					<string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
				</dict>
			</array>
		</dict>
	</dict>
</dict>
</plist>
"""


def project_file(groups):
    """A project.pbxproj with one app target that compiles and copies every file of `groups`
    (folder, relative to App, and its file names)."""
    objects = []
    app_children = []
    build_files = []
    for number, (folder, names) in enumerate(groups):
        children = []
        for index, name in enumerate(names):
            reference = f"F{number}X{index}"
            objects.append(
                f"{reference} = {{isa = PBXFileReference; path = {name}; sourceTree = \"<group>\"; }};")
            objects.append(f"B{number}X{index} = {{isa = PBXBuildFile; fileRef = {reference}; }};")
            build_files.append(f"B{number}X{index}")
            children.append(reference)
        if folder:
            objects.append(
                f"G{number} = {{isa = PBXGroup; children = ({', '.join(children)}); "
                f"path = {folder}; sourceTree = \"<group>\"; }};")
            app_children.append(f"G{number}")
        else:
            app_children += children
    settings = (
        "INFOPLIST_FILE = App/Info.plist; PRODUCT_BUNDLE_IDENTIFIER = com.example.app; "
        "IPHONEOS_DEPLOYMENT_TARGET = 15.0;")
    objects += [
        f"APP = {{isa = PBXGroup; children = ({', '.join(app_children)}); path = App; "
        "sourceTree = \"<group>\"; };",
        "MAIN = {isa = PBXGroup; children = (APP); sourceTree = \"<group>\"; };",
        f"SOURCES = {{isa = PBXSourcesBuildPhase; files = ({', '.join(build_files)}); }};",
        f"DEBUG = {{isa = XCBuildConfiguration; buildSettings = {{ {settings} }}; name = Debug; }};",
        "LIST = {isa = XCConfigurationList; buildConfigurations = (DEBUG); };",
        "TARGET = {isa = PBXNativeTarget; buildConfigurationList = LIST; buildPhases = (SOURCES); "
        "name = App; productType = \"com.apple.product-type.application\"; };",
        "PROJECT = {isa = PBXProject; mainGroup = MAIN; targets = (TARGET); };",
    ]
    body = "\n\t\t".join(objects)
    return (
        "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n"
        f"\tobjects = {{\n\t\t{body}\n\t}};\n\trootObject = PROJECT;\n}}\n")


def storyboard(index):
    scenes = []
    tabs = []
    for scene in range(1, 10):
        tabs.append(
            f'<segue destination="nav{scene}" kind="relationship" '
            f'relationship="viewControllers" id="t{scene}"/>')
        scenes.append(f"""        <scene sceneID="n{scene}">
            <objects>
                <navigationController storyboardIdentifier="Nav{index}_{scene}" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav{scene}" sceneMemberID="viewController">
                    <connections>
                        <segue destination="list{scene}" kind="relationship" relationship="rootViewController" id="r{scene}"/>
                    </connections>
                </navigationController>
            </objects>
        </scene>
        <scene sceneID="l{scene}">
            <objects>
                <tableViewController storyboardIdentifier="List{index}_{scene}" useStoryboardIdentifierAsRestorationIdentifier="YES" id="list{scene}" customClass="Screen{index * 9 + scene}ViewController" sceneMemberID="viewController">
                    <tableView key="view" restorationIdentifier="Table" id="table{scene}">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                        <prototypes>
                            <tableViewCell reuseIdentifier="Cell" id="cell{scene}">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="44"/>
                                <tableViewCellContentView key="contentView" id="content{scene}">
                                    <label text="Item" id="label{scene}"/>
                                </tableViewCellContentView>
                            </tableViewCell>
                        </prototypes>
                    </tableView>
                </tableViewController>
            </objects>
        </scene>""")
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="14490.70" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" initialViewController="tabs">
    <scenes>
        <scene sceneID="root">
            <objects>
                <tabBarController storyboardIdentifier="Tabs{index}" useStoryboardIdentifierAsRestorationIdentifier="YES" id="tabs" sceneMemberID="viewController">
                    <connections>
                        {chr(10).join(tabs)}
                    </connections>
                </tabBarController>
            </objects>
        </scene>
{chr(10).join(scenes)}
    </scenes>
</document>
"""


def generate(root, swift_files, storyboards, scenes=False):
    app = os.path.join(root, "App")
    os.makedirs(app)
    groups = {"": ["AppDelegate.swift"]}
    with open(os.path.join(app, "AppDelegate.swift"), "w") as file:
        file.write(APP_DELEGATE)
    for n in range(1, swift_files):
        name = f"Feature{n // 100}"
        folder = os.path.join(app, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"Screen{n}ViewController.swift"), "w") as file:
            file.write((CONTROLLER + SCENE_CONTROLLER if scenes else CONTROLLER).format(n=n))
        groups.setdefault(name, []).append(f"Screen{n}ViewController.swift")
    boards = os.path.join(app, "Storyboards")
    os.makedirs(boards)
    for index in range(storyboards):
        with open(os.path.join(boards, f"Flow{index}.storyboard"), "w") as file:
            file.write(storyboard(index))
        groups.setdefault("Storyboards", []).append(f"Flow{index}.storyboard")
    if scenes:
        for name, text in [("SceneDelegate.swift", SCENE_DELEGATE), ("Info.plist", INFO_PLIST)]:
            with open(os.path.join(app, name), "w") as file:
                file.write(text)
        groups[""].append("SceneDelegate.swift")
        os.makedirs(os.path.join(root, "App.xcodeproj"))
        with open(os.path.join(root, "App.xcodeproj", "project.pbxproj"), "w") as file:
            file.write(project_file(sorted(groups.items())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tool", help="the restoration-archive-tool executable (a release build)")
    parser.add_argument("--swift-files", type=int, default=2000)
    parser.add_argument("--storyboards", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--scenes", action="store_true", help="an app with scenes and an Xcode project")
    arguments = parser.parse_args()
    root = tempfile.mkdtemp(prefix="lint-project-")
    try:
        generate(root, arguments.swift_files, arguments.storyboards, arguments.scenes)
        times = []
        for _ in range(arguments.runs):
            start = time.perf_counter()
            result = subprocess.run(
                [arguments.tool, "lint", root], capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if result.returncode not in (0, 1):
                sys.stderr.write(result.stderr)
                return 1
        summary = result.stdout.strip().splitlines()[-1]
        print(summary.replace(root + "/", ""))
        print(
            f"{arguments.swift_files} Swift files, {arguments.storyboards} storyboards"
            f"{' with scenes' if arguments.scenes else ''}, "
            f"{os.cpu_count()} cores: "
            f"best {min(times):.2f} s, median {statistics.median(times):.2f} s "
            f"over {arguments.runs} runs")
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
