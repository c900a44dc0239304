// libFuzzer target for Poppler (`make fuzz`); built without FUZZING it replays the files it is given.
import FuzzSupport
import PopplerRenderer

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzInput.run(UnsafeRawBufferPointer(start: data, count: size), with: PopplerRenderer(logger: quietLogger))
        return 0
    }
#else
    @main
    enum Replay {
        static func main() {
            FuzzInput.replay(Array(CommandLine.arguments.dropFirst()), with: PopplerRenderer(logger: quietLogger))
        }
    }
#endif
