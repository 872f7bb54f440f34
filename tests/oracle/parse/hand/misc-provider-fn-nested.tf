a = provider::a::b(provider::c::d("x"))
