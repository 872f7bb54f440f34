block "%%{x}" {}
