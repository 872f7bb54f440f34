a = "%{ IF true }y%{ ENDIF }"
