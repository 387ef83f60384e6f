"""Every error of this library derives from ExportError: callers catch the library's own
errors with one except clause, so no builtin exception is raised."""


class ExportError(Exception):
    """Generic error all errors of this library inherit."""


class ExportInvalidArgument(ValueError, ExportError):
    """An argument the caller passed is not valid."""


class ExportNotImplemented(NotImplementedError, ExportError):
    """An operator or option the exporter does not support."""
