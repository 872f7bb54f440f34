if = /* c */ a::b::f("\n\u00e9"...) true = a::b::f("\n\u00e9"...)a "" {
}