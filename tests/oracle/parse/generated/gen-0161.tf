d-e ={(x): é, (x): null}
