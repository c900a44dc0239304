import CMuPDF
import RendererEngine

extension MuPDFDocument {
    func optionalContentGroups() throws -> [OptionalContentGroup] {
        final class Collector {
            var groups: [OptionalContentGroup] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_layers(handle, { user, name, shown in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            collector.groups.append(OptionalContentGroup(index: collector.groups.count, name: name.map { String(cString: $0) } ?? "", isVisibleByDefault: shown != 0))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "list the optional content", code: .damaged) }
        return collector.groups
    }

    func optionalContentConfigurations() throws -> [OptionalContentConfiguration] {
        final class Collector {
            var configurations: [OptionalContentConfiguration] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_layer_configurations(handle, { user, name, creator, isDefault in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            collector.configurations.append(OptionalContentConfiguration(
                name: name.map { String(cString: $0) }, creator: creator.map { String(cString: $0) }, isDefault: isDefault != 0))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "list the optional-content configurations", code: .damaged) }
        return collector.configurations
    }

    func setOptionalContentStates(_ states: [Bool]) throws {
        var error = cmupdf_error()
        let values = states.map { Int32($0 ? 1 : 0) }
        guard cmupdf_set_layer_states(handle, values, Int32(values.count), &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "show and hide optional content", code: .invalidArgument)
        }
    }
}
