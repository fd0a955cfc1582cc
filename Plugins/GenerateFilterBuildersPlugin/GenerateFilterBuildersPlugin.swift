import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-filter-builders`: rewrites
/// `Sources/Kernels/Builders/FilterBuilders.generated.swift` from the filter registry by running the
/// `GenerateFilterBuilders` tool. `scripts/generate-filter-builders.sh` empties the file first, so
/// a stale file that no longer compiles never blocks regenerating it.
@main
struct GenerateFilterBuildersPlugin: CommandPlugin {
    /// Runs the tool with the builders file's path; fails when the tool does.
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "GenerateFilterBuilders")
        let file = context.package.directoryURL
            .appending(path: "Sources/Kernels/Builders/FilterBuilders.generated.swift")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = [file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw GenerationFailed(status: process.terminationStatus)
        }
        print("wrote \(file.path)")
    }
}
