import Foundation
import GraphCodecs
import GraphEngine

/// The files of a run's outputs, written all or nothing: each output's folder is created and a
/// temporary file made beside its target before anything renders; ``commit()`` renames them into
/// place once every one is written, and ``abandon()`` removes the temporaries (and the folders
/// this run created, when empty) otherwise.
package final class OutputFiles {
    package private(set) var files: [PendingFile] = []
    private var outputs: [RecipeOutput] = []
    private var createdFolders: [String] = []
    private var committed = false

    package init() {}

    /// Creates the output's folder if needed and its temporary file; errors name `outputs[i].file`.
    package func prepare(_ output: RecipeOutput) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output.file, isDirectory: &isFolder), isFolder.boolValue {
            throw RecipeError("\(output.path).file", "'\(output.file)' is a folder")
        }
        createdFolders += try OutputFolders.create(for: output.file, key: "\(output.path).file")
        do {
            files.append(try PendingFile(path: output.file))
        } catch {
            throw RecipeError("\(output.path).file", "\(error)")
        }
        outputs.append(output)
    }

    /// Renders `image` with `context` and streams it, encoded as output `index` says, into that
    /// output's temporary file; errors name the output (`outputs[i]: ...`).
    package func write(_ index: Int, image: Image, context: Context, progress: RenderProgress? = nil) throws {
        let output = outputs[index]
        do {
            try context.encode(image, format: output.format, options: output.options, to: files[index].descriptor,
                               progress: progress)
        } catch let error as CodecError where error.path == nil {
            throw RecipeError(output.path, "\(error.at(path: output.file))")  // writing it failed
        } catch {
            throw RecipeError(output.path, "\(error)")
        }
    }

    /// Renames every temporary file over its target, all or nothing (`PendingFileGroup`): when
    /// one fails, the outputs already renamed get back what they replaced (or are removed when they
    /// were new), and the error names the output that failed.
    package func commit() throws {
        do {
            try PendingFileGroup.commit(files)
        } catch {
            let failed = outputs.first { $0.file == error.path }
            throw RecipeError(failed.map { "\($0.path).file" } ?? "outputs", "\(error)")
        }
        committed = true
    }

    /// After a failure: removes the temporary files and the (empty) folders made for them.
    package func abandon() {
        guard !committed else { return }
        for file in files { file.discard() }
        OutputFolders.removeIfEmpty(createdFolders)
    }
}
