/// Every layer of the engine, re-exported: `import GraphEngine` gives the whole library.
@_exported import GraphCore
@_exported import GraphCompiler
@_exported import GraphCPU
@_exported import GraphIO
