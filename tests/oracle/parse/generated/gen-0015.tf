in /* c */ d-e /* c */ {
} # c
