/// The program that drives a running LibreOffice over UNO, LibreOffice's own Python bridge
/// (Debian's `python3-uno`): it connects to the instance's pipe, says it is ready with the
/// sockets the instance made in /tmp (which LibreOffice removes only when it ends by
/// itself, not when it is killed), then reads
/// one conversion a line (`{"input", "output"}`, JSON) and answers each with `{"ok": true}`
/// or `{"error"}`; when its input ends (the converter ended, even killed), it ends
/// LibreOffice. Each document is loaded hidden, read-only, with no macro run
/// (`MacroExecutionMode` NEVER_EXECUTE) and no link updated (`UpdateDocMode` NO_UPDATE), and
/// exported by the PDF filter of its kind. Written into the converter's profile folder when
/// the instance starts, so that an installed hostapp needs no file beside it.
enum OfficeBridge {
    static let script = #"""
        import hashlib, json, os, sys, time
        import uno
        from com.sun.star.beans import PropertyValue
        from com.sun.star.connection import NoConnectException

        FILTERS = [
            ("com.sun.star.text.GenericTextDocument", "writer_pdf_Export"),
            ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
            ("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
            ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
        ]

        def prop(name, value):
            p = PropertyValue()
            p.Name, p.Value = name, value
            return p

        def connect(pipe, deadline):
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            while True:
                try:
                    context = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                    return context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
                except NoConnectException:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)

        def convert(desktop, source, target):
            load = (prop("Hidden", True), prop("ReadOnly", True), prop("MacroExecutionMode", 0), prop("UpdateDocMode", 0), prop("Silent", True))
            document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(source), "_blank", 0, load)
            if document is None:
                raise RuntimeError("unreadable")
            try:
                name = next((f for service, f in FILTERS if document.supportsService(service)), None)
                if name is None:
                    raise RuntimeError("not a document LibreOffice exports to PDF")
                document.storeToURL(uno.systemPathToFileUrl(target), (prop("FilterName", name),))
            finally:
                document.close(True)

        def sockets(pipe, installation):
            """The sockets LibreOffice made in /tmp for this instance: the pipe it accepts on, and
            its single-instance pipe, named by the MD5 of the user installation's URL in UTF-16,
            each byte in hexadecimal without padding (with or without a final slash)."""
            def ipc(url):
                return "SingleOfficeIPC_" + "".join("%x" % b for b in hashlib.md5(url.encode("utf-16-le")).digest())
            names = [pipe, ipc(installation), ipc(installation.rstrip("/"))]
            paths = ["/tmp/OSL_PIPE_%d_%s" % (os.getuid(), name) for name in names]
            return sorted({path for path in paths if os.path.exists(path)})

        desktop = connect(sys.argv[1], time.monotonic() + float(sys.argv[2]))
        try:
            print(json.dumps({"ready": True, "sockets": sockets(sys.argv[1], sys.argv[3])}), flush=True)
            for line in sys.stdin:
                request = json.loads(line)
                try:
                    convert(desktop, request["input"], request["output"])
                    print(json.dumps({"ok": True}), flush=True)
                except Exception as error:
                    print(json.dumps({"error": str(error) or type(error).__name__}), flush=True)
        finally:
            # The converter went (its requests ended, or it is not there to read the answer),
            # however it ended: LibreOffice goes too.
            try:
                desktop.terminate()
            except Exception:
                pass
        """#

    /// The profile's settings, written before the instance first starts: every HTTP, HTTPS
    /// and FTP fetch through a proxy at a closed loopback port (a document's linked pictures
    /// and data are never fetched), and macros disabled outright.
    static let settings = """
        <?xml version="1.0" encoding="UTF-8"?>
        <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetProxyType" oor:op="fuse"><value>1</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPProxyPort" oor:op="fuse"><value>9</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPSProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetHTTPSProxyPort" oor:op="fuse"><value>9</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetFTPProxyName" oor:op="fuse"><value>127.0.0.1</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetFTPProxyPort" oor:op="fuse"><value>9</value></prop></item>
        <item oor:path="/org.openoffice.Inet/Settings"><prop oor:name="ooInetNoProxy" oor:op="fuse"><value></value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
        </oor:items>

        """
}
