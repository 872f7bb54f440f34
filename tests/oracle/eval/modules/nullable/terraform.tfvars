not_nullable      = null
nullable_default  = null
not_nullable_list = null
nested_null       = null
null_attr         = { a = null }
