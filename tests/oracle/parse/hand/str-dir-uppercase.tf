a = "%{ IF a }x%{ ENDIF }"
