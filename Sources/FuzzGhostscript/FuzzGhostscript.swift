// libFuzzer target for Ghostscript (`make fuzz`); built without FUZZING it replays the files it is given.
import FuzzSupport
import GhostscriptRenderer

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzInput.run(UnsafeRawBufferPointer(start: data, count: size), with: GhostscriptRenderer(logger: quietLogger))
        return 0
    }
#else
    @main
    enum Replay {
        static func main() {
            FuzzInput.replay(Array(CommandLine.arguments.dropFirst()), with: GhostscriptRenderer(logger: quietLogger))
        }
    }
#endif
