/// Every layer of the engine (GraphCore, GraphCompiler, GraphCPU, GraphIO), re-exported: `import
/// GraphEngine` gives the whole library.
@_exported import GraphIO
