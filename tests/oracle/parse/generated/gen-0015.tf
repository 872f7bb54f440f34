in /* c */ d-e /* c */ {
} 