b_c "l" d-e {
}
