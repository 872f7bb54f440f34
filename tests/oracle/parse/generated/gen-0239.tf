d-e d-e {
}