// A server's configuration names its collaboration (`CollaborationConfiguration`): an
// application that serves configures it without importing the module that keeps it.
@_exported import RendererCollaborationServer
