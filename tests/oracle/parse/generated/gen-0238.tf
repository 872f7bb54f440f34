true d-e {
}