/// The layer below, re-exported: a file of this target sees it without importing it, and so do
/// the targets above.
@_exported import GraphCore
