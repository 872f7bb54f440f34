in /* c */ in /* c */ {
} 