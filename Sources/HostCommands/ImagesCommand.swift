import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct ImagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images", abstract: "List and extract the images the pages draw, as pdfimages does.",
        discussion: """
            An image is listed each time a page draws it (in its content, the forms it draws and its annotations' \
            appearances), followed by the mask or soft mask it is drawn through, numbered from 0 as pdfimages \
            -list numbers them. Read over the PDF's objects, so MuPDF and Poppler give the same list.
            """,
        subcommands: [List.self, Extract.self])

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the images: page, number, type, size, colour space, components, bits, encoding, interpolation, object.")

        @ParentCommand var hostApp: HostApp
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let images = try global.open(file).images()
            if json { return try JSONOutput.print(images) }
            print("page   num  type     width height color comp bpc  enc   interp  object ID")
            print(String(repeating: "-", count: 76))
            for image in images {
                let object = image.object.map { "\(String($0.number).leftPadded(to: 7)) \(String($0.generation).leftPadded(to: 2))" } ?? " [inline]"
                let cells = [
                    String(image.pageIndex + 1).leftPadded(to: 4), String(image.number).leftPadded(to: 5), image.role.rawValue.rightPadded(to: 7),
                    String(image.width).leftPadded(to: 6), String(image.height).leftPadded(to: 6), image.colorSpace.rightPadded(to: 5),
                    String(image.components).leftPadded(to: 4), String(image.bitsPerComponent).leftPadded(to: 3),
                    image.encoding.rawValue.rightPadded(to: 5), (image.interpolates ? "yes" : "no").rightPadded(to: 6), object,
                ]
                print(cells.joined(separator: " "))
            }
        }
    }

    struct Extract: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract", abstract: "Save the images as files in a folder: JPEG and JPEG 2000 as stored, others as PNG.",
            discussion: """
                Each listed image (masks included) is saved as NAME-NUMBER.EXT, NAME the document's file name without \
                .pdf and NUMBER its number in list, three digits at least: a JPEG or JPEG 2000 image byte for byte as the \
                PDF stores it, any other as a PNG file of its samples, made gray or RGB. Needs the PDF's permission to \
                copy. An image that cannot be made gray or RGB (Lab, DeviceN) is named and left out, and the command \
                then fails after saving the others. An existing file is kept unless --force is given.
                """)

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("The image to save, by its number in list. Repeatable; default: all.", valueName: "n")) var number: [Int] = []
        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The folder to save into (made if missing).", valueName: "folder"))
        var output = "."
        @Flag(help: "Replace files that exist.") var force = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let document = try global.open(file)
            try global.checkSettings(permit: [.saveTo, .copying], on: file, opened: document)
            let images = try document.images()
            for wanted in number where !images.indices.contains(wanted) {
                throw RendererError(.invalidArgument, "image \(wanted) does not exist; the pages draw \(images.count) (numbered from 0)")
            }
            let chosen = number.isEmpty ? images : number.map { images[$0] }
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            var left: [Int] = []
            for image in chosen {
                let extracted: ImageFile
                do {
                    extracted = try document.imageFile(image)
                } catch let error as RendererError where error.code == .unsupported {
                    Failure.printError("image \(image.number) is not saved: \(error.message)")
                    left.append(image.number)
                    continue
                }
                let path = URL(fileURLWithPath: output).appendingPathComponent(name + "-" + OutputNaming.padded(image.number, to: 3) + "." + extracted.format.fileExtension).path
                if !force, FileManager.default.fileExists(atPath: path) {
                    throw RendererError(.conflict, "\(path) exists; give --force to replace it")
                }
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                try AtomicFile.write(extracted.data, to: path)
                print("saved \(image.number) as \(path)")
            }
            if !left.isEmpty {
                throw RendererError(.unsupported, "\(left.count) of \(chosen.count) images were not saved: \(left.map(String.init).joined(separator: ", "))")
            }
        }
    }
}
