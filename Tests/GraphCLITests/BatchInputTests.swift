import Foundation
import XCTest
@testable import GraphCLI

/// Input listing (arguments, manifests, globs, folders) and output templates of `graph batch`.
final class BatchInputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-batch-inputs-\(UUID().uuidString)")
        for file in ["a.jpg", "b.PNG", "notes.txt", ".hidden.jpg", "sub/c.jpeg", "sub/deeper/d.png", "sub/.cache/e.jpg"] {
            let url = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0]).write(to: url)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testFoldersListImageFilesSortedWithTheirSubfolder() throws {
        let root = folder.path
        var sources = BatchInputSources(folders: [root + "/"])
        XCTAssertEqual(try sources.list().map(\.path), ["\(root)/a.jpg", "\(root)/b.PNG"])
        sources.recursive = true
        let listed = try sources.list()
        XCTAssertEqual(listed.map(\.path), ["\(root)/a.jpg", "\(root)/b.PNG", "\(root)/sub/c.jpeg", "\(root)/sub/deeper/d.png"])
        XCTAssertEqual(listed.map(\.folder), ["", "", "sub", "sub/deeper"])
        XCTAssertEqual(listed.map(\.index), [0, 1, 2, 3])
        sources.extensions = ["txt"]
        XCTAssertEqual(try sources.list().map(\.path), ["\(root)/notes.txt"])
    }

    func testGlobs() throws {
        let root = folder.path
        XCTAssertEqual(try PathGlob.expand("\(root)/*.jpg"), ["\(root)/a.jpg"])
        XCTAssertEqual(try PathGlob.expand("\(root)/**/*.[jp]*g"),
                       ["\(root)/a.jpg", "\(root)/sub/c.jpeg", "\(root)/sub/deeper/d.png"])
        XCTAssertEqual(try PathGlob.expand("\(root)/s?b/*/d.png"), ["\(root)/sub/deeper/d.png"])
        XCTAssertEqual(try PathGlob.expand("\(root)/**/.cache/*"), ["\(root)/sub/.cache/e.jpg"])
        XCTAssertEqual(try PathGlob.expand("\(root)/nothing/*.jpg"), [])
    }

    func testManifestsArgumentsAndGlobsKeepTheirOrderAndFolders() throws {
        let manifest = folder.appendingPathComponent("list.txt")
        try "photos/x.jpg\r\n\n/abs/y.png\nz.jpg\n".write(to: manifest, atomically: true, encoding: .utf8)
        let sources = BatchInputSources(paths: ["first.png"], manifests: [manifest.path], globs: ["\(folder.path)/*.jpg"])
        let listed = try sources.list(firstIndex: 10)
        XCTAssertEqual(listed, [
            BatchInput(path: "first.png", folder: "", index: 10),
            BatchInput(path: "photos/x.jpg", folder: "photos", index: 11),
            BatchInput(path: "/abs/y.png", folder: "/abs", index: 12),
            BatchInput(path: "z.jpg", folder: "", index: 13),
            BatchInput(path: "\(folder.path)/a.jpg", folder: folder.path, index: 14),
        ])
    }

    func testTemplates() throws {
        let input = BatchInput(path: "photos/2024/IMG_1.v2.JPG", folder: "2024", index: 7)
        func expand(_ text: String, output: String = "") throws -> String {
            try OutputTemplate(text, option: "--out").expand(input, outputFile: output)
        }
        XCTAssertEqual(try expand("out/{dir}/{stem}.{ext}"), "out/2024/IMG_1.v2.JPG")
        XCTAssertEqual(try expand("out/{index}-{index:4}.png"), "out/7-0007.png")
        XCTAssertEqual(try expand("out/{stem}-{output}.jpg", output: "/r/out/sepia.png"), "out/IMG_1.v2-sepia.jpg")
        XCTAssertEqual(try expand("{{{stem}}}.png"), "{IMG_1.v2}.png")
        XCTAssertEqual(try OutputTemplate("{dir}/{stem}.png", option: "--out").expand(BatchInput(path: "a.png", folder: "", index: 0)),
                       "a.png", "an empty {dir} is the current folder")
        XCTAssertEqual(OutputTemplate.tidy("/out//./a/../b.png"), "/out/a/../b.png")
        XCTAssertEqual(try OutputTemplate("out/{stem}.jpg", option: "--out").fixedExtension, "jpg")
        XCTAssertNil(try OutputTemplate("out/{stem}.{ext}", option: "--out").fixedExtension)
        XCTAssertNil(try OutputTemplate("out.d/{stem}", option: "--out").fixedExtension)
        for bad in ["{stem", "stem}", "{index:0}", "{index:x}", "{path}"] {
            XCTAssertThrowsError(try OutputTemplate(bad, option: "--out"), bad)
        }
    }
}
