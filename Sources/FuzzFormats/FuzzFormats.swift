// libFuzzer target for the project's own parsers (`make fuzz`); built without FUZZING it replays the files it is given.

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FormatInput.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
#else
    @main
    enum Replay {
        static func main() {
            FormatInput.replay(Array(CommandLine.arguments.dropFirst()))
        }
    }
#endif
